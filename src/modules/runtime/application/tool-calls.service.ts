import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Clock } from 'src/platform/clock/clock';
import { McpConfig } from 'src/platform/mcp/mcp.config';
import { McpCallTimeout } from 'src/platform/mcp/mcp-session';
import { AgentActionsService, EXPIRED_TEXT } from 'src/modules/runtime/application/agent-actions.service';
import type { ModelMessage, ModelToolCall } from 'src/modules/runtime/application/ports/model-provider';
import type { OfferedTool, RunToolset } from 'src/modules/runtime/application/run-tools.service';
import type { Run } from 'src/modules/runtime/application/run';
import { ShutdownSignal } from 'src/modules/runtime/application/run-signals';
import { RunBudgetExceeded } from 'src/modules/runtime/application/run-tree-budget';
import type { StepCall } from 'src/modules/runtime/domain/agent-run';
import { RunAction, isSettled, outputText, wasCutWhileRunning } from 'src/modules/runtime/domain/run-action';
import { parseToolArguments } from 'src/modules/runtime/domain/tool-arguments';
import { capToolOutput } from 'src/modules/runtime/domain/tool-output';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';

/** A run stopped while one of its calls waited for approval: it stays running, to be resumed. */
export class ApprovalWaitInterrupted extends Error {
  constructor() {
    super('The run stopped while a tool call waited for approval.');
  }
}

/** A call of a step, checked: the tool it names and its arguments, or why it cannot run. */
interface PreparedCall {
  call: ModelToolCall;
  tool: OfferedTool | undefined;
  params: Record<string, unknown>;
  problem: string | null;
}

/**
 * Executes the tool calls of a run's steps: each is an action on the agent message, run in
 * parallel within its step under the per-call timeout, its output capped before the model sees it;
 * calls that need approval wait for it (durably: the action row is the state).
 */
@Injectable()
export class ToolCallsService {
  /** Runs of this process waiting for an answer, by action row id. */
  private readonly waiting = new Map<number, () => void>();
  /** The runs of this process waiting for an answer to a call, with how many of their calls wait. */
  private readonly awaitingAnswer = new Map<number, number>();

  constructor(
    private readonly actions: AgentActionsService,
    private readonly config: RuntimeConfig,
    private readonly mcp: McpConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Records one step's calls, with the text the step wrote before them, and executes them; answers
   * the tool messages for the model, in call order.
   */
  async execute(
    run: Run,
    step: { step: number; text: string },
    calls: ModelToolCall[],
    toolset: RunToolset,
    signal: AbortSignal,
  ): Promise<ModelMessage[]> {
    const prepared = calls.map((call, index) => this.prepare(call, index, toolset));
    const deadline = new Date(this.clock.now().getTime() + this.config.tools.approvalTimeoutMs);
    const recorded = await this.actions.record(
      run,
      step,
      prepared.map(({ call, tool, params, problem }): StepCall => ({
        toolCallId: call.id,
        functionCallName: call.name.slice(0, 64),
        mcpServerName: tool?.mcpServerName ?? '',
        mcpServerId: tool?.server.mcpServerId ?? null,
        internalMcpServerName: tool?.server.internalMcpServerName ?? null,
        toolName: tool?.tool.name ?? '',
        params,
        needsApproval: problem === null && tool?.needsApproval === true,
      })),
      deadline,
    );
    return this.settleAll(run, recorded, prepared, toolset, signal);
  }

  /**
   * Settles actions recorded before: those waiting for approval or approved but never started run
   * (or are declined). Those that were running when their process stopped run again only when
   * their tool says that is safe; the others fail, and the model is told they may have taken
   * effect. Answers the tool messages of the whole step.
   */
  async resume(run: Run, stepActions: RunAction[], toolset: RunToolset, signal: AbortSignal) {
    const prepared = stepActions.map((action): PreparedCall => {
      const tool = toolset.find(action.functionCallName);
      const call = { id: action.toolCallId, name: action.functionCallName, arguments: '' };
      const unsafe = wasCutWhileRunning(action) && !(tool && isSafeToRepeat(tool));
      return {
        call,
        tool,
        params: action.params,
        problem: !tool
          ? `The tool ${action.functionCallName} is no longer offered to this agent.`
          : unsafe
            ? INTERRUPTED_TEXT
            : null,
      };
    });
    return this.settleAll(run, stepActions, prepared, toolset, signal);
  }

  /** Runs of this process waiting for an answer: nothing they do meanwhile is lost if they stop. */
  get runsAwaitingAnswer(): number {
    return this.awaitingAnswer.size;
  }

  /** An answer was given in this process: the run waiting for it looks at once. */
  answered(actionId: number): void {
    this.waiting.get(actionId)?.();
  }

  private prepare(call: ModelToolCall, index: number, toolset: RunToolset): PreparedCall {
    const tool = toolset.find(call.name);
    const params = parseToolArguments(call.arguments);
    const limit = this.config.tools.maxCallsPerStep;
    const problem =
      index >= limit
        ? `Not run: at most ${limit} tool calls are allowed in one step.`
        : !tool
          ? `There is no tool named ${call.name}.`
          : params === null
            ? 'The arguments are not a JSON object.'
            : null;
    return { call, tool, params: params ?? {}, problem };
  }

  private async settleAll(
    run: Run,
    actions: RunAction[],
    prepared: PreparedCall[],
    toolset: RunToolset,
    signal: AbortSignal,
  ): Promise<ModelMessage[]> {
    const outputs = await Promise.all(
      actions.map((action, index) => this.settleOne(run, action, prepared[index], toolset, signal)),
    );
    return actions.map((action, index) => ({
      role: 'tool',
      toolCallId: action.toolCallId,
      content: outputs[index],
    }));
  }

  /** Runs (or refuses) one call and records its outcome; answers what the model is told. */
  private async settleOne(
    run: Run,
    action: RunAction,
    prepared: PreparedCall,
    toolset: RunToolset,
    signal: AbortSignal,
  ): Promise<string> {
    if (isSettled(action.status)) return outputText(action);
    if (prepared.problem !== null || !prepared.tool) {
      const text = prepared.problem ?? `There is no tool named ${action.functionCallName}.`;
      await this.actions.settle(run, action, action.status, {
        status: 'failed',
        output: [{ type: 'text', text }],
        executionDurationMs: 0,
      });
      return text;
    }
    let current = action;
    if (current.status === 'blocked_validation_required') {
      current = await this.waitForAnswer(run, current, signal);
      if (current.status !== 'running') return outputText(current);
    }
    return this.run(run, current, prepared.tool, toolset, signal);
  }

  private async run(
    run: Run,
    action: RunAction,
    tool: OfferedTool,
    toolset: RunToolset,
    signal: AbortSignal,
  ): Promise<string> {
    await this.actions.markStarted(action);
    const started = this.clock.now().getTime();
    const { callTimeoutMs, outputMaxBytes } = this.mcp;
    let status: 'succeeded' | 'failed';
    let text: string;
    try {
      const output = await toolset.call(tool, action.params, { signal, timeoutMs: callTimeoutMs });
      status = output.isError ? 'failed' : 'succeeded';
      text = capToolOutput(
        output.content.map((item) => item.text),
        outputMaxBytes,
      );
    } catch (error) {
      // The process stops: the call stays running, for the runner that resumes the run to judge.
      if (signal.reason instanceof ShutdownSignal) throw error;
      if (signal.aborted) {
        await this.actions.settle(run, action, 'running', {
          status: 'failed',
          output: [{ type: 'text', text: stoppedText(signal) }],
          executionDurationMs: this.clock.now().getTime() - started,
        });
        throw error;
      }
      status = 'failed';
      text =
        error instanceof McpCallTimeout
          ? error.message
          : `The tool call failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    await this.actions.settle(
      run,
      action,
      'running',
      { status, output: [{ type: 'text', text }], executionDurationMs: this.clock.now().getTime() - started },
      toolset.dataSpaces.all,
    );
    return text;
  }

  /**
   * Waits until the call is answered (here or on another process), declining it once its deadline
   * passes. A stop of the run ends the wait.
   */
  private async waitForAnswer(run: Run, action: RunAction, signal: AbortSignal): Promise<RunAction> {
    const runId = run.message.id;
    this.awaitingAnswer.set(runId, (this.awaitingAnswer.get(runId) ?? 0) + 1);
    try {
      return await this.pollAnswer(run, action, signal);
    } finally {
      const left = this.awaitingAnswer.get(runId)! - 1;
      if (left === 0) this.awaitingAnswer.delete(runId);
      else this.awaitingAnswer.set(runId, left);
    }
  }

  private async pollAnswer(run: Run, action: RunAction, signal: AbortSignal): Promise<RunAction> {
    for (;;) {
      const current = (await this.actions.current(action)) ?? action;
      if (current.status !== 'blocked_validation_required') return current;
      const left = (current.approvalDeadline?.getTime() ?? 0) - this.clock.now().getTime();
      if (left <= 0) {
        await this.actions.settle(run, current, 'blocked_validation_required', {
          status: 'denied',
          output: [{ type: 'text', text: EXPIRED_TEXT }],
          executionDurationMs: 0,
        });
        continue;
      }
      // Stopped: a cancellation declined the call already; a shutdown leaves it waiting for the next process.
      if (signal.aborted) throw new ApprovalWaitInterrupted();
      const wake = new AbortController();
      this.waiting.set(action.id, () => wake.abort());
      try {
        await sleep(Math.min(left, this.config.tools.approvalPollMs), undefined, {
          signal: AbortSignal.any([wake.signal, signal]),
        });
      } catch {
        // Woken by an answer or stopped: the next turn looks at the action again.
      } finally {
        this.waiting.delete(action.id);
      }
    }
  }
}

/** What the model is told of a call cut while it ran, which its tool does not say is safe to repeat. */
export const INTERRUPTED_TEXT =
  'This tool call was interrupted when the service restarted. It may or may not have taken effect, ' +
  'and it was not run again: check its effect before calling the tool again.';

/** The tool says a call only reads, or has no further effect when repeated. */
function isSafeToRepeat(tool: OfferedTool): boolean {
  return tool.tool.readOnlyHint === true || tool.tool.idempotentHint === true;
}

/** Why a call did not end: its run stopped (cancelled, interrupted, or out of budget). */
function stoppedText(signal: AbortSignal): string {
  return signal.reason instanceof RunBudgetExceeded
    ? signal.reason.message
    : 'The run stopped while the tool ran.';
}
