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
  functionCallId: string;
  mcpServerName: string;
  mcpServerId: string | null;
  internalMCPServerName: string | null;
  toolName: string;
  params: Record<string, unknown>;
  status: ActionStatus;
  output: ActionOutput | null;
  step: number;
  createdAt: number;
  updatedAt: number;
  executionDurationMs: number | null;
  /** Citation slots Dust reserves for a search's results: tools here cite nothing. */
  citationsAllocated: 0;
  /** Files a tool produced: tools here return text only. */
  generatedFiles: never[];
  /** Labels a tool declares for its running and done states: tools here declare none. */
  displayLabels: null;
}

/** A call waiting for approval, as `actions/blocked` lists it. */
export interface BlockedActionView {
  conversationId: string;
  messageId: string;
  configurationId: string;
  actionId: string;
  /** Why it waits: for its approver's answer. */
  status: 'blocked_validation_required';
  functionCallName: string;
  inputs: Record<string, unknown>;
  metadata: { toolName: string; mcpServerName: string; agentName: string };
  createdAt: number;
  expiresAt: number | null;
}
