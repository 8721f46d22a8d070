import type { AgentDetails } from 'src/modules/agents/application/agents.service';

/** The model settings of an agent, as the agents' application gives them. */
type AgentModel = AgentDetails['agent']['model'];
export type ModelProviderId = AgentModel['providerId'];
export type ReasoningEffort = AgentModel['reasoningEffort'];

export interface ModelMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface ModelRequest {
  modelId: string;
  instructions: string;
  temperature: number;
  reasoningEffort: ReasoningEffort;
  messages: ModelMessage[];
}

/** A failure of the model call, with the code that ends up on the agent message. */
export class ModelError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Port: turns instructions and a conversation into streamed text. */
export abstract class ModelProvider {
  abstract stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<string>;
}

/** Port: the adapter for each provider an agent may name. */
export abstract class ModelProviders {
  abstract get(providerId: ModelProviderId): ModelProvider;
}
