import {
  AgentVersion,
  AgentScope,
  AgentStatus,
  requestedSpaceIds,
} from 'src/modules/agents/domain/agent-configuration';

/** Dust's light agent form: how an agent message names the agent version that answers. */
export interface LightAgentConfiguration {
  id: number;
  sId: string;
  version: number;
  versionCreatedAt: string;
  /** Row id of the version's author, as in the private form; null for built-in agents. */
  versionAuthorId: number | null;
  name: string;
  description: string;
  /** Never repeated in a message: its readers may not be allowed to read the agent. */
  instructions: null;
  pictureUrl: string;
  status: AgentStatus;
  scope: AgentScope;
  /** A message is the same for every reader, so no reader's favorite flag is in it. */
  userFavorite: false;
  model: { providerId: string; modelId: string; temperature: number };
  maxStepsPerRun: number;
  visualizationEnabled: boolean;
  templateId: string | null;
  requestedGroupIds: string[][];
}

export function lightAgentConfiguration(agent: AgentVersion): LightAgentConfiguration {
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
