import type { AgentDetails } from 'src/modules/agents/application/agent-details.loader';
import type {
  PrivateAgentConfigurationView,
  PublicAgentConfigurationView,
  SkippedActionView,
} from 'src/modules/agents/application/views/agent-configuration.view';
import type { SkippedAction } from 'src/modules/agents/domain/toolset-resolution';

export function presentPrivateAgent(details: AgentDetails): PrivateAgentConfigurationView {
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

export function presentPublicAgent(details: AgentDetails): PublicAgentConfigurationView {
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
