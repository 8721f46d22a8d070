import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { SID_PATTERN, SpaceParams, WorkspaceParams } from 'src/platform/http/route-params';
import { ROLES, Role } from 'src/platform/auth/caller';
import { SCOPES, Scope } from 'src/platform/auth/scopes';
import { API_KEY_NAME_MAX } from 'src/modules/identity/domain/api-key';
import { SPACE_NAME_MAX } from 'src/modules/identity/domain/space';
import { FULL_NAME_MAX } from 'src/modules/identity/domain/user';

export class AddMemberDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsEmail()
  @MaxLength(320)
  email!: string;

  @ApiProperty({ example: 'Ada Lovelace' })
  @IsString()
  @MinLength(1)
  @MaxLength(FULL_NAME_MAX)
  @HumanName()
  fullName!: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES)
  role!: Role;
}

export class ChangeRoleDto {
  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES)
  role!: Role;
}

export class CreateApiKeyDto {
  @ApiProperty({ example: 'CI pipeline' })
  @IsString()
  @MinLength(1)
  @MaxLength(API_KEY_NAME_MAX)
  @HumanName()
  name!: string;

  @ApiPropertyOptional({
    enum: SCOPES,
    isArray: true,
    description: 'Defaults to the scopes of the calling key.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SCOPES.length)
  @IsIn(SCOPES, { each: true })
  scopes?: Scope[];

  @ApiPropertyOptional({ description: 'sId of the member who will own the key (admins only).' })
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN)
  userId?: string;
}

export class CreateSpaceDto {
  @ApiProperty({ example: 'Finance' })
  @IsString()
  @MinLength(1)
  @MaxLength(SPACE_NAME_MAX)
  @HumanName()
  name!: string;

  @ApiPropertyOptional({ type: [String], description: 'sIds of the workspace members to add.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Matches(SID_PATTERN, { each: true })
  memberIds?: string[];
}

export class MemberParams extends WorkspaceParams {
  @ApiProperty({ description: 'sId of the member (a user of the workspace).', example: 'Us9dF3kQ2z' })
  @IsString()
  userId!: string;
}

export class KeyParams extends WorkspaceParams {
  @ApiProperty({ description: 'Id of the API key (`key_…`), not its secret.', example: 'key_Hx2Lm8Pq4W' })
  @IsString()
  keyId!: string;
}

export class SpaceMemberParams extends SpaceParams {
  @ApiProperty({ description: 'sId of the member (a user of the workspace).', example: 'Us9dF3kQ2z' })
  @IsString()
  userId!: string;
}
