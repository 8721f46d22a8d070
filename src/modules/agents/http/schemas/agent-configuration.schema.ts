import { ApiExtraModels, ApiProperty } from '@nestjs/swagger';
import type * as views from 'src/modules/agents/application/views/agent-configuration.view';

export class PrivateModelView implements views.PrivateModelView {
  providerId!: string;
  modelId!: string;
  temperature!: number;
  /** @example none */
  reasoningEffort!: string;
}

export class PublicModelView implements views.PublicModelView {
  providerId!: string;
  modelId!: string;
  temperature!: number;
}

export class TagView implements views.TagView {
  sId!: string;
  name!: string;
}

export class EditorView implements views.EditorView {
  sId!: string;
  fullName!: string;
  image!: string;
}

export class UsageView implements views.UsageView {
  messageCount!: number;
  conversationCount!: number;
  userCount!: number;
  timePeriodSec!: number;
}

export class FeedbacksView implements views.FeedbacksView {
  up!: number;
  down!: number;
}

export class ActionView implements views.ActionView {
  /** @example mcp_server_configuration */
  type!: string;
  name!: string;
  description!: string;
  mcpServerName!: string;
  internal!: boolean;
  mcpServerId!: string | null;
  mcpServerViewId!: string | null;
  spaceId!: string | null;
}

/** Each requested space is its own group: Dust's `requestedGroupIds`. */
const GROUPS = { type: 'array', items: { type: 'array', items: { type: 'string' } } } as const;

/** The private form (list, create, get): the specification's second agent table. */
export class PrivateAgentConfiguration implements views.PrivateAgentConfigurationView {
  id!: number;
  sId!: string;
  version!: number;
  name!: string;
  description!: string;
  pictureUrl!: string;
  /** @example active */
  status!: string;
  /** @example global */
  scope!: string;
  model!: PrivateModelView;
  maxStepsPerRun!: number;
  /** Whether the agent may render charts and small apps (Dust field). */
  visualizationEnabled!: boolean;
  tags!: TagView[];
  /** ISO 8601 */
  versionCreatedAt!: string;
  /** Row id of the author; null for built-in agents. */
  versionAuthorId!: number | null;
  /** Null when the caller cannot read the agent. */
  instructions!: string | null;
  userFavorite!: boolean;
  templateId!: string | null;
  @ApiProperty(GROUPS)
  requestedGroupIds!: string[][];
  requestedSpaceIds!: string[];
  canRead!: boolean;
  canEdit!: boolean;
  /** With withAuthors=true. */
  lastAuthors?: string[];
  /** With withEditors=true. */
  editors?: EditorView[];
  /** With withUsage=true. */
  usage?: UsageView;
  /** With withFeedbacks=true. */
  feedbacks?: FeedbacksView;
}

/** The public form (returned by update): the specification's first agent table. */
@ApiExtraModels(ActionView)
export class PublicAgentConfiguration implements views.PublicAgentConfigurationView {
  id!: number;
  sId!: string;
  version!: number;
  versionCreatedAt!: string | null;
  /** sId of the author */
  versionAuthorId!: string | null;
  name!: string;
  description!: string;
  instructions!: string | null;
  pictureUrl!: string;
  status!: string;
  scope!: string;
  userFavorite!: boolean;
  model!: PublicModelView;
  actions!: ActionView[];
  maxStepsPerRun!: number;
  /** Whether the agent may render charts and small apps (Dust field). */
  visualizationEnabled!: boolean;
  templateId!: string | null;
  @ApiProperty({ ...GROUPS, description: 'Spaces a reader needs, one group per space (Dust field).' })
  requestedGroupIds!: string[][];
}

export class SkippedActionView implements views.SkippedActionView {
  name!: string;
  reason!: string;
}

export class ArchivedAgentResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

export class AgentHistoryResponse {
  /** The versions, newest first. */
  history!: PrivateAgentConfiguration[];
}

export class AgentConfigurationResponse {
  agentConfiguration!: PrivateAgentConfiguration;
}

export class AgentConfigurationsResponse {
  agentConfigurations!: PrivateAgentConfiguration[];
}

export class UpdatedAgentConfigurationResponse {
  agentConfiguration!: PublicAgentConfiguration;
  skippedActions!: SkippedActionView[];
}
