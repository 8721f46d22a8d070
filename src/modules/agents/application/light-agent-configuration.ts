import type { LightAgentConfigurationView } from 'src/modules/agents/application/views/light-agent-configuration.view';
import { AgentVersion, requestedSpaceIds } from 'src/modules/agents/domain/agent-configuration';

export function lightAgentConfiguration(agent: AgentVersion): LightAgentConfigurationView {
  return {
    id: agent.id,
    sId: agent.sId,
    version: agent.version,
    versionCreatedAt: agent.versionCreatedAt.toISOString(),
    versionAuthorId: agent.versionAuthorId,
    name: agent.name,
    description: agent.description,
    instructions: null,
    pictureUrl: agent.pictureUrl,
    status: agent.status,
    scope: agent.scope,
    userFavorite: false,
    model: {
      providerId: agent.model.providerId,
      modelId: agent.model.modelId,
      temperature: agent.model.temperature,
    },
    maxStepsPerRun: agent.maxStepsPerRun,
    visualizationEnabled: agent.visualizationEnabled,
    templateId: agent.templateId,
    // No groups exist apart from spaces: each requested space is its own group.
    requestedGroupIds: requestedSpaceIds(agent.actions).map((spaceId) => [spaceId]),
  };
}
