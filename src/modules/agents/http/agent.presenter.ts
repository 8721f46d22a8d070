import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { AgentDetails } from 'src/modules/agents/application/agent-details.loader';
import type { SkippedAction } from 'src/modules/agents/domain/toolset-resolution';

class PrivateModelView {
  @ApiProperty() providerId!: string;
  @ApiProperty() modelId!: string;
  @ApiProperty() temperature!: number;
  @ApiProperty({ example: 'none' }) reasoningEffort!: string;
}

class PublicModelView {
  @ApiProperty() providerId!: string;
  @ApiProperty() modelId!: string;
  @ApiProperty() temperature!: number;
}

class TagView {
  @ApiProperty() sId!: string;
  @ApiProperty() name!: string;
}

class EditorView {
  @ApiProperty() sId!: string;
  @ApiProperty() fullName!: string;
  @ApiProperty() image!: string;
}

class UsageView {
  @ApiProperty() messageCount!: number;
  @ApiProperty() conversationCount!: number;
  @ApiProperty() userCount!: number;
  @ApiProperty() timePeriodSec!: number;
}

class FeedbacksView {
  @ApiProperty() up!: number;
  @ApiProperty() down!: number;
}

export class ActionView {
  @ApiProperty({ example: 'mcp_server_configuration' }) type!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty() mcpServerName!: string;
  @ApiProperty() internal!: boolean;
  @ApiProperty({ type: String, nullable: true }) mcpServerId!: string | null;
  @ApiProperty({ type: String, nullable: true }) mcpServerViewId!: string | null;
  @ApiProperty({ type: String, nullable: true }) spaceId!: string | null;
}

/** The private form (list, create, get): the specification's second agent table. */
export class PrivateAgentConfiguration {
  @ApiProperty() id!: number;
  @ApiProperty() sId!: string;
  @ApiProperty() version!: number;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty() pictureUrl!: string;
  @ApiProperty({ example: 'active' }) status!: string;
  @ApiProperty({ example: 'global' }) scope!: string;
  @ApiProperty({ type: PrivateModelView }) model!: PrivateModelView;
  @ApiProperty() maxStepsPerRun!: number;
  @ApiProperty({ description: 'Whether the agent may render charts and small apps (Dust field).' })
  visualizationEnabled!: boolean;
  @ApiProperty({ type: [TagView] }) tags!: TagView[];
  @ApiProperty({ description: 'ISO 8601' }) versionCreatedAt!: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Row id of the author; null for built-in agents.',
  })
  versionAuthorId!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Null when the caller cannot read the agent.' })
  instructions!: string | null;
  @ApiProperty() userFavorite!: boolean;
  @ApiProperty({ type: String, nullable: true }) templateId!: string | null;
  @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'string' } } })
  requestedGroupIds!: string[][];
  @ApiProperty({ type: [String] }) requestedSpaceIds!: string[];
  @ApiProperty() canRead!: boolean;
  @ApiProperty() canEdit!: boolean;
  @ApiPropertyOptional({ type: [String], description: 'With withAuthors=true.' }) lastAuthors?: string[];
  @ApiPropertyOptional({ type: [EditorView], description: 'With withEditors=true.' }) editors?: EditorView[];
  @ApiPropertyOptional({ type: UsageView, description: 'With withUsage=true.' }) usage?: UsageView;
  @ApiPropertyOptional({ type: FeedbacksView, description: 'With withFeedbacks=true.' })
  feedbacks?: FeedbacksView;
}

/** The public form (returned by update): the specification's first agent table. */
@ApiExtraModels(ActionView)
export class PublicAgentConfiguration {
  @ApiProperty() id!: number;
  @ApiProperty() sId!: string;
  @ApiProperty() version!: number;
  @ApiProperty({ type: String, nullable: true }) versionCreatedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'sId of the author' }) versionAuthorId!:
    string | null;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: String, nullable: true }) instructions!: string | null;
  @ApiProperty() pictureUrl!: string;
  @ApiProperty() status!: string;
  @ApiProperty() scope!: string;
  @ApiProperty() userFavorite!: boolean;
  @ApiProperty({ type: PublicModelView }) model!: PublicModelView;
  @ApiProperty({ type: [ActionView] }) actions!: ActionView[];
  @ApiProperty() maxStepsPerRun!: number;
  @ApiProperty({ description: 'Whether the agent may render charts and small apps (Dust field).' })
  visualizationEnabled!: boolean;
  @ApiProperty({ type: String, nullable: true }) templateId!: string | null;
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
    description: 'Spaces a reader needs, one group per space (Dust field).',
  })
  requestedGroupIds!: string[][];
}

export class ArchivedAgentResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

export class AgentHistoryResponse {
  @ApiProperty({ type: [PrivateAgentConfiguration], description: 'The versions, newest first.' })
  history!: PrivateAgentConfiguration[];
}

class SkippedActionView {
  @ApiProperty() name!: string;
  @ApiProperty() reason!: string;
}

export class AgentConfigurationResponse {
  @ApiProperty({ type: PrivateAgentConfiguration }) agentConfiguration!: PrivateAgentConfiguration;
}

export class AgentConfigurationsResponse {
  @ApiProperty({ type: [PrivateAgentConfiguration] }) agentConfigurations!: PrivateAgentConfiguration[];
}

export class UpdatedAgentConfigurationResponse {
  @ApiProperty({ type: PublicAgentConfiguration }) agentConfiguration!: PublicAgentConfiguration;
  @ApiProperty({ type: [SkippedActionView] }) skippedActions!: SkippedActionView[];
}

export function presentPrivateAgent(details: AgentDetails): PrivateAgentConfiguration {
  const { agent } = details;
  const view: PrivateAgentConfiguration = {
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

export function presentPublicAgent(details: AgentDetails): PublicAgentConfiguration {
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

export function presentSkipped(skipped: SkippedAction[]): SkippedActionView[] {
  return skipped.map(({ name, reason }) => ({ name, reason }));
}
