import {
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { NestedObject, OptionalNestedList } from 'src/platform/http/nested-input';
import { SID_PATTERN } from 'src/platform/http/route-params';
import {
  AGENT_DESCRIPTION_MAX,
  AGENT_INSTRUCTIONS_MAX,
  AGENT_NAME_PATTERN,
  EDITABLE_SCOPES,
  MAX_STEPS_PER_RUN_LIMIT,
  MODEL_ID_MAX,
} from 'src/modules/agents/domain/agent-configuration';
import { MODEL_PROVIDERS, ModelProviderId, REASONING_EFFORTS, ReasoningEffort } from 'src/kernel/agent-model';
import { TAG_KINDS, TAG_NAME_MAX, TagKind } from 'src/modules/agents/domain/catalogue';

/** An http(s) URL with its scheme, on any host (`localhost` included). */
export const HTTP_URL = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };
export const NAME_MESSAGE =
  'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit';

class ModelDto {
  @IsIn(MODEL_PROVIDERS)
  providerId!: ModelProviderId;

  /** @example local-1 */
  @IsString()
  @MinLength(1)
  @MaxLength(MODEL_ID_MAX)
  modelId!: string;

  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  temperature!: number;

  @IsOptional()
  @IsIn(REASONING_EFFORTS)
  reasoningEffort?: ReasoningEffort;
}

export class TagReferenceDto {
  @IsString()
  @MinLength(1)
  @MaxLength(TAG_NAME_MAX)
  @HumanName()
  name!: string;

  @IsOptional()
  @IsIn(TAG_KINDS)
  kind?: TagKind;
}

class CreateEditorDto {
  /** sId of a workspace member */
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN)
  userId?: string;

  @IsOptional()
  @IsEmail()
  email?: string;
}

class SkillReferenceDto {
  @IsString()
  @Matches(SID_PATTERN)
  sId!: string;
}

class CreateActionDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @HumanName()
  name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(AGENT_DESCRIPTION_MAX)
  description?: string;

  /** Name of an internal tool server or display name of a remote one. */
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  mcpServerName!: string;
}

export class NewAgentDto {
  /** @example support-bot */
  @IsString()
  @Matches(AGENT_NAME_PATTERN, { message: `name ${NAME_MESSAGE}` })
  name!: string;

  @IsString()
  @MaxLength(AGENT_DESCRIPTION_MAX)
  description!: string;

  @IsString()
  @MaxLength(AGENT_INSTRUCTIONS_MAX)
  instructions!: string;

  @IsOptional()
  @IsUrl(HTTP_URL)
  @MaxLength(2048)
  pictureUrl?: string;

  @IsOptional()
  @IsIn(['active', 'draft'])
  status?: 'active' | 'draft';

  @IsIn(EDITABLE_SCOPES)
  scope!: 'visible' | 'hidden';

  @NestedObject(() => ModelDto)
  model!: ModelDto;

  @OptionalNestedList(() => CreateActionDto, 32)
  actions?: CreateActionDto[];

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_STEPS_PER_RUN_LIMIT)
  maxStepsPerRun?: number;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  templateId?: string | null;

  @OptionalNestedList(() => TagReferenceDto, 32)
  tags?: TagReferenceDto[];

  @OptionalNestedList(() => CreateEditorDto, 100)
  editors?: CreateEditorDto[];

  @OptionalNestedList(() => SkillReferenceDto, 32)
  skills?: SkillReferenceDto[];
}

export class CreateAgentDto {
  @NestedObject(() => NewAgentDto)
  assistant!: NewAgentDto;
}
