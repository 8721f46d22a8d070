/** What became of a tool call a run made. */
export const ACTION_STATUSES = [
  'running',
  'succeeded',
  'failed',
  'blocked_validation_required',
  'denied',
] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

export type ActionOutput = { type: 'text'; text: string }[];

/** How a running or waiting call ends: its status, output and time spent running. */
export interface ActionOutcome {
  status: Extract<ActionStatus, 'succeeded' | 'failed' | 'denied'>;
  output: ActionOutput;
  executionDurationMs: number;
}

/**
 * One tool call of a run, in the step whose model answer asked for it. A call that needs approval
 * waits (`blocked_validation_required`) for its approver until its deadline; approved, it keeps the
 * deadline until its call starts, so a resumed run tells the approved calls that never started
 * from those cut while running.
 */
export interface RunAction {
  id: number;
  sId: string;
  workspaceId: number;
  runId: number;
  /** The conversation and agent message of its run, as those who list calls across runs need them. */
  conversationId: number;
  messageId: number;
  step: number;
  /** The model's id for the call: tool results go back under it. */
  toolCallId: string;
  functionCallName: string;
  mcpServerName: string;
  /** The sId of the remote server it calls; null for an internal server or a call of no tool. */
  mcpServerId: string | null;
  /** The name of the internal server it calls; null otherwise. */
  internalMcpServerName: string | null;
  toolName: string;
  params: Record<string, unknown>;
  status: ActionStatus;
  output: ActionOutput | null;
  createdAt: Date;
  /** Its last change of status. */
  updatedAt: Date;
  executionDurationMs: number | null;
  /** Set while the call waits for approval, or is approved and not started: past it, a waiting call is declined. */
  approvalDeadline: Date | null;
  /** The member whose approval the call waits for (the run acts for them); admins may answer too. */
  approverId: number | null;
}

export type NewRunAction = Omit<
  RunAction,
  'id' | 'createdAt' | 'updatedAt' | 'executionDurationMs' | 'conversationId' | 'messageId'
>;

/** A finished call: it ran (or was refused) and its output is final. */
export function isSettled(status: ActionStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'denied';
}

/** The call waits for its approver's answer, or was approved and never started. */
export function awaitsApprovalOrStart(action: RunAction): boolean {
  return (
    action.status === 'blocked_validation_required' ||
    (action.status === 'running' && action.approvalDeadline !== null)
  );
}

/** The call was running when its run stopped: running it again could repeat what it did. */
export function wasCutWhileRunning(action: RunAction): boolean {
  return action.status === 'running' && action.approvalDeadline === null;
}

/** The text of a call's output, as the model reads it. */
export function outputText(action: Pick<RunAction, 'output'>): string {
  return (action.output ?? []).map((item) => item.text).join('\n');
}
