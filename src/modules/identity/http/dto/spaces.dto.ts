import { IntersectionType, PickType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { SID_PATTERN, SpaceParams } from 'src/platform/http/route-params';
import { SPACE_NAME_MAX } from 'src/modules/identity/domain/space';
import { MemberParams } from 'src/modules/identity/http/dto/members.dto';

export class CreateSpaceDto {
  /** @example Finance */
  @IsString()
  @MinLength(1)
  @MaxLength(SPACE_NAME_MAX)
  @HumanName()
  name!: string;

  /** sIds of the workspace members to add. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Matches(SID_PATTERN, { each: true })
  memberIds?: string[];
}

export class SpaceMemberParams extends IntersectionType(SpaceParams, PickType(MemberParams, ['userId'])) {}
