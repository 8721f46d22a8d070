import type { AgentScope, AgentStatus } from 'src/modules/agents/domain/agent-configuration';

export interface LightAgentModelView {
  providerId: string;
  modelId: string;
  temperature: number;
}

/** Dust's light agent form: how an agent message names the agent version that answers. */
export interface LightAgentConfigurationView {
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
  model: LightAgentModelView;
  maxStepsPerRun: number;
  visualizationEnabled: boolean;
  templateId: string | null;
  requestedGroupIds: string[][];
}
