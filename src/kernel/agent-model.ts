/**
 * The model an agent answers with: agents store it in each version, conversations show it on
 * their messages, and the runtime picks its provider and settings from it.
 */
export const MODEL_PROVIDERS = ['local', 'openai'] as const;
export type ModelProviderId = (typeof MODEL_PROVIDERS)[number];

export const REASONING_EFFORTS = ['none', 'light', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export interface AgentModel {
  providerId: ModelProviderId;
  modelId: string;
  temperature: number;
  reasoningEffort: ReasoningEffort;
}
