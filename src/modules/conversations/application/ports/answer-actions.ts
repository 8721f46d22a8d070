import type { ActionOutput, ActionStatus } from 'src/modules/conversations/domain/action';

/** A tool call of an agent message, as the message's views show it. */
export interface AnswerAction {
  id: number;
  sId: string;
  /** The agent message's row id. */
  messageId: number;
  step: number;
  /** The model's id for the call. */
  toolCallId: string;
  functionCallName: string;
  mcpServerName: string;
  /** The remote server's sId; null for an internal server or a call of no tool. */
  mcpServerId: string | null;
  /** The internal server's name; null otherwise. */
  internalMcpServerName: string | null;
  toolName: string;
  params: Record<string, unknown>;
  status: ActionStatus;
  output: ActionOutput | null;
  createdAt: Date;
  updatedAt: Date;
  executionDurationMs: number | null;
}

/**
 * Port: the tool calls of agent messages. The runtime, which makes and owns them, answers it.
 * Every query takes the workspace id.
 */
export abstract class AnswerActions {
  /** The calls of these agent messages, each message's in call order. */
  abstract listForMessages(workspaceId: number, messageIds: number[]): Promise<AnswerAction[]>;
}
