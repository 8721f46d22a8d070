import { generatePrefixedSId } from 'src/platform/ids/sid';
import type { NewRunAction, RunAction } from 'src/modules/runtime/domain/run-action';

/** The step of the calls that say which toolset entries a run was not offered: before the first model step. */
export const UNAVAILABLE_STEP = -1;

/** `running` until the agent message it generates has an outcome, then that outcome's. */
export const RUN_STATUSES = ['running', 'succeeded', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type RunOutcome = Exclude<RunStatus, 'running'>;

/** A call a model step asked for, as the runtime resolved it. */
export interface StepCall {
  toolCallId: string;
  functionCallName: string;
  mcpServerName: string;
  mcpServerId: string | null;
  internalMcpServerName: string | null;
  toolName: string;
  params: Record<string, unknown>;
  /** The call waits for the approver's answer before it runs. */
  needsApproval: boolean;
}

/** A model step of a run and the calls it asked for, in call order. */
export interface RunStep {
  step: number;
  actions: RunAction[];
}

export interface AgentRunState {
  id: number;
  workspaceId: number;
  conversationId: number;
  /** The agent message the run generates (conversations own it). */
  messageId: number;
  /** The member the run acts for (its tools' caller); unknown for runs recorded before it was kept. */
  userId: number | null;
  status: RunStatus;
  /** The process that generates the run, and its last sign of life. */
  runnerId: string | null;
  heartbeatAt: Date | null;
  /** Its tool calls, in call order. */
  actions: RunAction[];
  /** The text of each step that called tools, by step, as the step wrote it. */
  stepTexts: Record<number, string>;
}

/**
 * The run of one agent message: the process holding it, its steps and their tool calls, and the
 * approvals those wait for. Several processes change one run (its runner, a member answering a
 * call, a sweep taking it over), so its repository applies each change only from the state it
 * expects; the rules of what a change is live here.
 */
export class AgentRun {
  constructor(private readonly state: AgentRunState) {}

  get id(): number {
    return this.state.id;
  }

  get workspaceId(): number {
    return this.state.workspaceId;
  }

  get conversationId(): number {
    return this.state.conversationId;
  }

  get messageId(): number {
    return this.state.messageId;
  }

  get userId(): number | null {
    return this.state.userId;
  }

  get status(): RunStatus {
    return this.state.status;
  }

  get runnerId(): string | null {
    return this.state.runnerId;
  }

  get heartbeatAt(): Date | null {
    return this.state.heartbeatAt;
  }

  get actions(): readonly RunAction[] {
    return this.state.actions;
  }

  /** The model steps made so far, in order; the calls at `UNAVAILABLE_STEP` are no step. */
  get steps(): RunStep[] {
    const steps = new Map<number, RunAction[]>();
    for (const action of this.state.actions) {
      if (action.step === UNAVAILABLE_STEP) continue;
      steps.set(action.step, [...(steps.get(action.step) ?? []), action]);
    }
    return [...steps.entries()].sort(([a], [b]) => a - b).map(([step, actions]) => ({ step, actions }));
  }

  /** The step the model makes next. */
  get nextStep(): number {
    const steps = this.steps;
    return steps.length === 0 ? 0 : steps[steps.length - 1].step + 1;
  }

  /**
   * Where the run's answer stands when another runner resumes it: the text of each step it made,
   * given back to the model with that step's calls, and the text the message has past them, which
   * a step cut mid-answer streamed (the model is asked to continue it). The message's content is
   * the text of its steps in order: a step recorded without its text (runs from before texts were
   * kept) leaves nothing to continue.
   */
  resumePoint(content: string): { stepTexts: string[]; cutText: string } {
    const steps = this.steps;
    const known = steps.every(({ step }) => this.state.stepTexts[step] !== undefined);
    const stepTexts = steps.map(({ step }) => this.state.stepTexts[step] ?? '');
    const written = stepTexts.join('');
    const cutText = known && content.startsWith(written) ? content.slice(written.length) : '';
    return { stepTexts, cutText };
  }

  /**
   * The calls of `step` to record: `running`, or waiting until `deadline` for `approverId` (the
   * member the run acts for) when they need approval.
   */
  static stepCalls(
    run: { id: number; workspaceId: number },
    step: number,
    calls: StepCall[],
    approval: { approverId: number; deadline: Date },
  ): NewRunAction[] {
    return calls.map((call) => ({
      sId: generatePrefixedSId('act'),
      workspaceId: run.workspaceId,
      runId: run.id,
      step,
      toolCallId: call.toolCallId,
      functionCallName: call.functionCallName,
      mcpServerName: call.mcpServerName,
      mcpServerId: call.mcpServerId,
      internalMcpServerName: call.internalMcpServerName,
      toolName: call.toolName,
      params: call.params,
      status: call.needsApproval ? 'blocked_validation_required' : 'running',
      output: null,
      approvalDeadline: call.needsApproval ? approval.deadline : null,
      approverId: call.needsApproval ? approval.approverId : null,
    }));
  }

  /** One failed call per toolset entry that offers nothing to the run, saying why, before its first step. */
  static unavailableCalls(
    run: { id: number; workspaceId: number },
    servers: { name: string; reason: string }[],
  ): NewRunAction[] {
    return servers.map((server, index) => ({
      sId: generatePrefixedSId('act'),
      workspaceId: run.workspaceId,
      runId: run.id,
      step: UNAVAILABLE_STEP,
      toolCallId: `unavailable_${index + 1}`,
      functionCallName: server.name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64),
      mcpServerName: server.name,
      mcpServerId: null,
      internalMcpServerName: null,
      toolName: '',
      params: {},
      status: 'failed',
      output: [{ type: 'text', text: `Not offered to this run: ${server.reason}` }],
      approvalDeadline: null,
      approverId: null,
    }));
  }
}
