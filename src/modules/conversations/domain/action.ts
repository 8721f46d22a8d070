/** What became of a tool call an agent message made. */
export const ACTION_STATUSES = [
  'running',
  'succeeded',
  'failed',
  'blocked_validation_required',
  'denied',
] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

export type ActionOutput = { type: 'text'; text: string }[];

/** A decision on a call that waits for approval; `expired` is no answer in time. */
export type ApprovalDecision = 'approved' | 'rejected' | 'expired';

/** One tool call of an agent message, in the step of its run that asked for it. */
export interface AgentAction {
  id: number;
  sId: string;
  workspaceId: number;
  conversationId: number;
  /** The agent message's row id. */
  messageId: number;
  step: number;
  /** The model's id for the call: tool results go back under it. */
  toolCallId: string;
  functionCallName: string;
  mcpServerName: string;
  toolName: string;
  params: Record<string, unknown>;
  status: ActionStatus;
  output: ActionOutput | null;
  createdAt: Date;
  executionDurationMs: number | null;
  /** Set while the call waits for approval: past it, the call is declined. */
  approvalDeadline: Date | null;
  /** The member whose approval the call waits for (the run acts for them); admins may answer too. */
  approverId: number | null;
}

export type NewAgentAction = Omit<AgentAction, 'id' | 'createdAt' | 'executionDurationMs'>;

/** A finished action: the call ran (or was refused) and its output is final. */
export function isSettled(status: ActionStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'denied';
}
