import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { AgentDetails } from 'src/modules/agents/application/agent-details.loader';
import type { SkippedAction } from 'src/modules/agents/domain/toolset-resolution';

export class PrivateModelView {
  providerId!: string;
  modelId!: string;
  temperature!: number;
  /** @example none */
  reasoningEffort!: string;
}

export class PublicModelView {
  providerId!: string;
  modelId!: string;
  temperature!: number;
}

export class TagView {
  sId!: string;
  name!: string;
}

export class EditorView {
  sId!: string;
  fullName!: string;
  image!: string;
}

export class UsageView {
  messageCount!: number;
  conversationCount!: number;
  userCount!: number;
  timePeriodSec!: number;
}

export class FeedbacksView {
  up!: number;
  down!: number;
}

/** A toolset entry of the public form: a tool server the agent may call. */
export class ActionView {
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
@ApiSchema({ name: 'PrivateAgentConfiguration' })
export class PrivateAgentConfigurationView {
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
@ApiSchema({ name: 'PublicAgentConfiguration' })
export class PublicAgentConfigurationView {
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

/** A toolset entry an update left out, and why. */
export class SkippedActionView {
  name!: string;
  reason!: string;
}

export class ArchivedAgentResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

export class AgentHistoryResponse {
  /** The versions, newest first. */
  history!: PrivateAgentConfigurationView[];
}

export class AgentConfigurationResponse {
  agentConfiguration!: PrivateAgentConfigurationView;
}

export class AgentConfigurationsResponse {
  agentConfigurations!: PrivateAgentConfigurationView[];
}

export class UpdatedAgentConfigurationResponse {
  agentConfiguration!: PublicAgentConfigurationView;
  skippedActions!: SkippedActionView[];
}

export function renderPrivateAgent(details: AgentDetails): PrivateAgentConfigurationView {
  const { agent } = details;
  const view: PrivateAgentConfigurationView = {
    id: agent.id,
    sId: agent.sId,
    version: agent.version,
    name: agent.name,
    description: agent.description,
    pictureUrl: agent.pictureUrl,
    status: agent.status,
    scope: agent.scope,
    model: { ...agent.model },
    maxStepsPerRun: agent.maxStepsPerRun,
    visualizationEnabled: agent.visualizationEnabled,
    tags: details.tags.map((tag) => ({ sId: tag.sId, name: tag.name })),
    versionCreatedAt: agent.versionCreatedAt.toISOString(),
    versionAuthorId: agent.versionAuthorId,
    instructions: details.canRead ? agent.instructions : null,
    userFavorite: details.userFavorite,
    templateId: agent.templateId,
    requestedGroupIds: requestedGroupIds(details),
    requestedSpaceIds: details.requestedSpaceIds,
    canRead: details.canRead,
    canEdit: details.canEdit,
  };
  if (details.lastAuthors) view.lastAuthors = details.lastAuthors;
  if (details.editors) view.editors = details.editors;
  if (details.usage) view.usage = details.usage;
  if (details.feedbacks) view.feedbacks = details.feedbacks;
  return view;
}

export function renderPublicAgent(details: AgentDetails): PublicAgentConfigurationView {
  const { agent } = details;
  return {
    id: agent.id,
    sId: agent.sId,
    version: agent.version,
    versionCreatedAt: agent.versionCreatedAt.toISOString(),
    versionAuthorId: details.versionAuthorSId,
    name: agent.name,
    description: agent.description,
    instructions: details.canRead ? agent.instructions : null,
    pictureUrl: agent.pictureUrl,
    status: agent.status,
    scope: agent.scope,
    userFavorite: details.userFavorite,
    model: {
      providerId: agent.model.providerId,
      modelId: agent.model.modelId,
      temperature: agent.model.temperature,
    },
    actions: agent.actions.map((action) => ({ ...action })),
    maxStepsPerRun: agent.maxStepsPerRun,
    visualizationEnabled: agent.visualizationEnabled,
    templateId: agent.templateId,
    requestedGroupIds: requestedGroupIds(details),
  };
}

/** No groups exist apart from spaces: each requested space is its own group. */
function requestedGroupIds(details: AgentDetails): string[][] {
  return details.requestedSpaceIds.map((spaceId) => [spaceId]);
}

export function renderSkipped(skipped: SkippedAction[]): SkippedActionView[] {
  return skipped.map(({ name, reason }) => ({ name, reason }));
}
