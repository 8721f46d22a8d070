import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { SID_PATTERN, SpaceParams, WorkspaceParams } from 'src/platform/http/route-params';
import {
  AGENT_SORTS,
  AGENT_VIEWS,
  AgentSort,
  AgentView,
} from 'src/modules/agents/application/agent-queries.service';
import {
  AGENT_DESCRIPTION_MAX,
  AGENT_INSTRUCTIONS_MAX,
  AGENT_NAME_PATTERN,
  EDITABLE_SCOPES,
  MAX_STEPS_PER_RUN_LIMIT,
  MODEL_ID_MAX,
  MODEL_PROVIDERS,
  ModelProviderId,
  REASONING_EFFORTS,
  ReasoningEffort,
} from 'src/modules/agents/domain/agent-configuration';
import {
  MCP_SERVER_DESCRIPTION_MAX,
  MCP_SERVER_NAME_MAX,
  MCP_SHARED_SECRET_MAX,
  REQUIRE_APPROVAL_TOOLS_MAX,
  RequireApproval,
  SKILL_NAME_MAX,
  TAG_KINDS,
  TAG_NAME_MAX,
  TOOL_NAME_MAX,
  TagKind,
  requireApprovalProblem,
} from 'src/modules/agents/domain/catalogue';

const HTTP_URL = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };
const NAME_MESSAGE = 'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit';

class ModelDto {
  @ApiProperty({ enum: MODEL_PROVIDERS })
  @IsIn(MODEL_PROVIDERS)
  providerId!: ModelProviderId;

  @ApiProperty({ example: 'local-1' })
  @IsString()
  @MinLength(1)
  @MaxLength(MODEL_ID_MAX)
  modelId!: string;

  @ApiProperty({ minimum: 0, maximum: 1 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  temperature!: number;

  @ApiPropertyOptional({ enum: REASONING_EFFORTS })
  @IsOptional()
  @IsIn(REASONING_EFFORTS)
  reasoningEffort?: ReasoningEffort;
}

export class TagReferenceDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(TAG_NAME_MAX)
  @HumanName()
  name!: string;

  @ApiPropertyOptional({ enum: TAG_KINDS })
  @IsOptional()
  @IsIn(TAG_KINDS)
  kind?: TagKind;
}

class CreateEditorDto {
  @ApiPropertyOptional({ description: 'sId of a workspace member' })
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN)
  userId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsEmail()
  email?: string;
}

class SkillReferenceDto {
  @ApiProperty()
  @IsString()
  @Matches(SID_PATTERN)
  sId!: string;
}

class CreateActionDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @HumanName()
  name!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(AGENT_DESCRIPTION_MAX)
  description?: string;

  @ApiProperty({ description: 'Name of an internal tool server or display name of a remote one.' })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  mcpServerName!: string;
}

export class NewAgentDto {
  @ApiProperty({ example: 'support-bot' })
  @IsString()
  @Matches(AGENT_NAME_PATTERN, { message: `name ${NAME_MESSAGE}` })
  name!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(AGENT_DESCRIPTION_MAX)
  description!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(AGENT_INSTRUCTIONS_MAX)
  instructions!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsUrl(HTTP_URL)
  @MaxLength(2048)
  pictureUrl?: string;

  @ApiPropertyOptional({ enum: ['active', 'draft'] })
  @IsOptional()
  @IsIn(['active', 'draft'])
  status?: 'active' | 'draft';

  @ApiProperty({ enum: EDITABLE_SCOPES })
  @IsIn(EDITABLE_SCOPES)
  scope!: 'visible' | 'hidden';

  @ApiProperty({ type: ModelDto })
  @IsObject()
  @ValidateNested()
  @Type(() => ModelDto)
  model!: ModelDto;

  @ApiPropertyOptional({ type: [CreateActionDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(32)
  @ValidateNested({ each: true })
  @Type(() => CreateActionDto)
  actions?: CreateActionDto[];

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_STEPS_PER_RUN_LIMIT })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_STEPS_PER_RUN_LIMIT)
  maxStepsPerRun?: number;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  templateId?: string | null;

  @ApiPropertyOptional({ type: [TagReferenceDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(32)
  @ValidateNested({ each: true })
  @Type(() => TagReferenceDto)
  tags?: TagReferenceDto[];

  @ApiPropertyOptional({ type: [CreateEditorDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => CreateEditorDto)
  editors?: CreateEditorDto[];

  @ApiPropertyOptional({ type: [SkillReferenceDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(32)
  @ValidateNested({ each: true })
  @Type(() => SkillReferenceDto)
  skills?: SkillReferenceDto[];
}

export class CreateAgentDto {
  @ApiProperty({ type: NewAgentDto })
  @IsObject()
  @ValidateNested()
  @Type(() => NewAgentDto)
  assistant!: NewAgentDto;
}

class AgentSettingsDto {
  @ApiPropertyOptional({ description: 'New name (handle).' })
  @IsOptional()
  @IsString()
  @Matches(AGENT_NAME_PATTERN, { message: `agent.handle ${NAME_MESSAGE}` })
  handle?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(AGENT_DESCRIPTION_MAX)
  description?: string;

  @ApiPropertyOptional({ enum: EDITABLE_SCOPES })
  @IsOptional()
  @IsIn(EDITABLE_SCOPES)
  scope?: 'visible' | 'hidden';

  @ApiPropertyOptional()
  @IsOptional()
  @IsUrl(HTTP_URL)
  @MaxLength(2048)
  avatar_url?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_STEPS_PER_RUN_LIMIT })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_STEPS_PER_RUN_LIMIT)
  max_steps_per_run?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  visualization_enabled?: boolean;
}

class GenerationSettingsDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MODEL_ID_MAX)
  model_id?: string;

  @ApiPropertyOptional({ enum: MODEL_PROVIDERS })
  @IsOptional()
  @IsIn(MODEL_PROVIDERS)
  provider_id?: ModelProviderId;

  @ApiPropertyOptional({ minimum: 0, maximum: 1 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  temperature?: number;

  @ApiPropertyOptional({ enum: REASONING_EFFORTS })
  @IsOptional()
  @IsIn(REASONING_EFFORTS)
  reasoning_effort?: ReasoningEffort;
}

class PatchEditorDto {
  @ApiPropertyOptional({ description: 'sId of a workspace member' })
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN)
  user_id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsEmail()
  email?: string;

  @ApiPropertyOptional({ description: 'Informative only; members are matched by user_id or email.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  full_name?: string;
}

class PatchSkillDto {
  @ApiProperty()
  @IsString()
  @Matches(SID_PATTERN)
  sId!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(100)
  name!: string;
}

class ToolsetConfigurationDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  mcp_server_name!: string;
}

class ToolsetEntryDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  @HumanName()
  name!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(AGENT_DESCRIPTION_MAX)
  description?: string;

  @ApiProperty({ enum: ['MCP'] })
  @IsIn(['MCP'])
  type!: 'MCP';

  @ApiProperty({ type: ToolsetConfigurationDto })
  @IsObject()
  @ValidateNested()
  @Type(() => ToolsetConfigurationDto)
  configuration!: ToolsetConfigurationDto;
}

/** Endpoint 1's body: every key optional, snake_case inner keys as the specification names them. */
export class UpdateAgentDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  userFavorite?: boolean;

  @ApiPropertyOptional({ type: AgentSettingsDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AgentSettingsDto)
  agent?: AgentSettingsDto;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(AGENT_INSTRUCTIONS_MAX)
  instructions?: string;

  @ApiPropertyOptional({ type: GenerationSettingsDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => GenerationSettingsDto)
  generation_settings?: GenerationSettingsDto;

  @ApiPropertyOptional({ type: [TagReferenceDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(32)
  @ValidateNested({ each: true })
  @Type(() => TagReferenceDto)
  tags?: TagReferenceDto[];

  @ApiPropertyOptional({ type: [PatchEditorDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => PatchEditorDto)
  editors?: PatchEditorDto[];

  @ApiPropertyOptional({ type: [PatchSkillDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(32)
  @ValidateNested({ each: true })
  @Type(() => PatchSkillDto)
  skills?: PatchSkillDto[];

  @ApiPropertyOptional({ type: [ToolsetEntryDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(32)
  @ValidateNested({ each: true })
  @Type(() => ToolsetEntryDto)
  toolset?: ToolsetEntryDto[];
}

export class ListAgentsQuery {
  @ApiPropertyOptional({ enum: AGENT_VIEWS, default: 'all' })
  @IsOptional()
  @IsIn(AGENT_VIEWS)
  view?: AgentView;

  @ApiPropertyOptional({ minimum: 0, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ enum: AGENT_SORTS, default: 'priority' })
  @IsOptional()
  @IsIn(AGENT_SORTS)
  sort?: AgentSort;

  @ApiPropertyOptional({ description: 'Only the value `true` enables.' })
  @IsOptional()
  @IsString()
  withAuthors?: string;

  @ApiPropertyOptional({ description: 'Only the value `true` enables.' })
  @IsOptional()
  @IsString()
  withEditors?: string;

  @ApiPropertyOptional({ description: 'Only the value `true` enables: answers of the last 30 days.' })
  @IsOptional()
  @IsString()
  withUsage?: string;

  @ApiPropertyOptional({
    description: 'Only the value `true` enables: up and down feedback given in the last 30 days.',
  })
  @IsOptional()
  @IsString()
  withFeedbacks?: string;
}

export class AgentParams extends WorkspaceParams {
  @ApiProperty({ description: 'sId of the agent configuration.', example: 'Ag4tB7nM1q' })
  @IsString()
  sId!: string;
}

/** The versions a history answers at most. */
export const AGENT_HISTORY_MAX = 100;

export class AgentHistoryQuery {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: AGENT_HISTORY_MAX,
    default: AGENT_HISTORY_MAX,
    description: 'How many versions, newest first.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(AGENT_HISTORY_MAX)
  limit?: number;
}

export class CreateSkillDto {
  @ApiProperty()
  @IsString()
  @MinLength(1)
  @MaxLength(SKILL_NAME_MAX)
  @HumanName()
  name!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(1000)
  description!: string;
}

export class CreateMcpServerDto {
  @ApiProperty({ description: 'Display name, used by toolset entries.', example: 'Ticketing' })
  @IsString()
  @MinLength(1)
  @MaxLength(MCP_SERVER_NAME_MAX)
  @HumanName()
  name!: string;

  @ApiProperty({
    example: 'https://mcp.example.com/mcp',
    description:
      'An http(s) URL, spoken to with Streamable HTTP, else the older SSE transport. Refused when it ' +
      'is, or resolves to, a loopback, private, link-local or otherwise non-public address, unless ' +
      'the service runs with `MCP_ALLOW_PRIVATE_NETWORKS=true`, and when it carries a user name or ' +
      'password (every member can read it; use `sharedSecret`).',
  })
  @IsUrl(HTTP_URL)
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({ example: 'Opens, reads and closes support tickets.' })
  @IsOptional()
  @IsString()
  @MaxLength(MCP_SERVER_DESCRIPTION_MAX)
  description?: string;

  @ApiPropertyOptional({
    example: 'Zm9vYmFyYmF6cXV4',
    description:
      'Sent as `Authorization: Bearer <sharedSecret>` on every request to the server. Stored, never returned.',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MCP_SHARED_SECRET_MAX)
  @Matches(/^[\x21-\x7e]+$/, { message: 'sharedSecret must be printable ASCII without spaces' })
  sharedSecret?: string;
}

/** The OpenAPI schema of `requireApproval`, in requests and answers. */
export const REQUIRE_APPROVAL_SCHEMA = {
  oneOf: [
    { type: 'string', enum: ['never', 'always'] },
    {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: TOOL_NAME_MAX },
      minItems: 1,
      maxItems: REQUIRE_APPROVAL_TOOLS_MAX,
      uniqueItems: true,
    },
  ],
  description:
    "Which tools of the server wait for a user's approval before they run, when called through this " +
    'view: `"never"` (none), `"always"` (all), or the names of those that do, exactly as the server ' +
    'lists them. Names the server does not list (now) are kept, and match nothing until it lists them.',
  example: ['delete_record'],
};

/** `"never"`, `"always"` or a list of tool names (see `requireApprovalProblem`). */
function IsRequireApproval(): PropertyDecorator {
  return ValidateBy({
    name: 'isRequireApproval',
    validator: {
      validate: (value) => requireApprovalProblem(value) === null,
      defaultMessage: (args) => `${args?.property} ${requireApprovalProblem(args?.value)}`,
    },
  });
}

export class ShareMcpServerDto {
  @ApiProperty({ example: 'mcp_8MvZ3nQ1kT' })
  @IsString()
  @Matches(SID_PATTERN)
  mcpServerId!: string;

  @ApiPropertyOptional({ ...REQUIRE_APPROVAL_SCHEMA, default: 'never' })
  // Left out means "never"; an explicit null is refused like any other wrong type.
  @ValidateIf((_, value) => value !== undefined)
  @IsRequireApproval()
  requireApproval?: RequireApproval;
}

export class UpdateMcpServerViewDto {
  @ApiProperty(REQUIRE_APPROVAL_SCHEMA)
  @IsRequireApproval()
  requireApproval!: RequireApproval;
}

export class McpServerParams extends WorkspaceParams {
  @ApiProperty({ description: 'sId of the remote MCP server (`mcp_…`).', example: 'mcp_Rk3Wq8Zt5n' })
  @IsString()
  id!: string;
}

export class McpServerViewParams extends SpaceParams {
  @ApiProperty({ description: "sId of the server's view in the space (`msv_…`).", example: 'msv_Tp6Ys1Vb8c' })
  @IsString()
  viewId!: string;
}
