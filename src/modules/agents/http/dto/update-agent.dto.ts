import {
  IsBoolean,
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
import { NAME_MESSAGE, TagReferenceDto } from 'src/modules/agents/http/dto/create-agent.dto';
import { HTTP_URL } from 'src/platform/http/input-fields';

class AgentSettingsDto {
  /** New name (handle). */
  @IsOptional()
  @IsString()
  @Matches(AGENT_NAME_PATTERN, { message: `agent.handle ${NAME_MESSAGE}` })
  handle?: string;

  @IsOptional()
  @IsString()
  @MaxLength(AGENT_DESCRIPTION_MAX)
  description?: string;

  @IsOptional()
  @IsIn(EDITABLE_SCOPES)
  scope?: 'visible' | 'hidden';

  @IsOptional()
  @IsUrl(HTTP_URL)
  @MaxLength(2048)
  avatar_url?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_STEPS_PER_RUN_LIMIT)
  max_steps_per_run?: number;

  @IsOptional()
  @IsBoolean()
  visualization_enabled?: boolean;
}

class GenerationSettingsDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MODEL_ID_MAX)
  model_id?: string;

  @IsOptional()
  @IsIn(MODEL_PROVIDERS)
  provider_id?: ModelProviderId;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  temperature?: number;

  @IsOptional()
  @IsIn(REASONING_EFFORTS)
  reasoning_effort?: ReasoningEffort;
}

class PatchEditorDto {
  /** sId of a workspace member */
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN)
  user_id?: string;

  @IsOptional()
  @IsEmail()
  email?: string;

  /** Informative only; members are matched by user_id or email. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  full_name?: string;
}

class PatchSkillDto {
  @IsString()
  @Matches(SID_PATTERN)
  sId!: string;

  @IsString()
  @MaxLength(100)
  name!: string;
}

class ToolsetConfigurationDto {
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  mcp_server_name!: string;
}

class ToolsetEntryDto {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @HumanName()
  name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(AGENT_DESCRIPTION_MAX)
  description?: string;

  @IsIn(['MCP'])
  type!: 'MCP';

  @NestedObject(() => ToolsetConfigurationDto)
  configuration!: ToolsetConfigurationDto;
}

/** Endpoint 1's body: every key optional, snake_case inner keys as the specification names them. */
export class UpdateAgentDto {
  @IsOptional()
  @IsBoolean()
  userFavorite?: boolean;

  @IsOptional()
  @NestedObject(() => AgentSettingsDto)
  agent?: AgentSettingsDto;

  @IsOptional()
  @IsString()
  @MaxLength(AGENT_INSTRUCTIONS_MAX)
  instructions?: string;

  @IsOptional()
  @NestedObject(() => GenerationSettingsDto)
  generation_settings?: GenerationSettingsDto;

  @OptionalNestedList(() => TagReferenceDto, 32)
  tags?: TagReferenceDto[];

  @OptionalNestedList(() => PatchEditorDto, 100)
  editors?: PatchEditorDto[];

  @OptionalNestedList(() => PatchSkillDto, 32)
  skills?: PatchSkillDto[];

  @OptionalNestedList(() => ToolsetEntryDto, 32)
  toolset?: ToolsetEntryDto[];
}
