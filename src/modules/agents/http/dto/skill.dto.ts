import { IsString, MaxLength, MinLength } from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { SKILL_NAME_MAX } from 'src/modules/agents/domain/catalogue';

export class CreateSkillDto {
  @IsString()
  @MinLength(1)
  @MaxLength(SKILL_NAME_MAX)
  @HumanName()
  name!: string;

  @IsString()
  @MaxLength(1000)
  description!: string;
}
