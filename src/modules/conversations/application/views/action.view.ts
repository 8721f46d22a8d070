import type { ActionOutput, ActionStatus } from 'src/modules/conversations/domain/action';

/**
 * One tool call of an agent message, as clients see it (in the message and in its events); `type`
 * and `agentMessageId` are those of Dust's tool actions.
 */
export interface ActionView {
  sId: string;
  id: number;
  type: 'tool_action';
  agentMessageId: number;
  functionCallName: string;
  mcpServerName: string;
  toolName: string;
  params: Record<string, unknown>;
  status: ActionStatus;
  output: ActionOutput | null;
  step: number;
  createdAt: number;
  executionDurationMs: number | null;
}

/** A call waiting for approval, as `actions/blocked` lists it. */
export interface BlockedActionView {
  conversationId: string;
  messageId: string;
  configurationId: string;
  actionId: string;
  functionCallName: string;
  inputs: Record<string, unknown>;
  metadata: { toolName: string; mcpServerName: string; agentName: string };
  createdAt: number;
  expiresAt: number | null;
}
