import { PickType } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { WorkspaceParams } from 'src/platform/http/route-params';
import { ROLES, Role } from 'src/platform/auth/caller';
import { FULL_NAME_MAX } from 'src/modules/identity/domain/user';

export class AddMemberDto {
  /** @example ada@example.com */
  @IsEmail()
  @MaxLength(320)
  email!: string;

  /** @example "Ada Lovelace" */
  @IsString()
  @MinLength(1)
  @MaxLength(FULL_NAME_MAX)
  @HumanName()
  fullName!: string;

  @IsIn(ROLES)
  role!: Role;
}

export class ChangeRoleDto extends PickType(AddMemberDto, ['role']) {}

export class MemberParams extends WorkspaceParams {
  /**
   * sId of the member (a user of the workspace).
   * @example Us9dF3kQ2z
   */
  @IsString()
  userId!: string;
}
