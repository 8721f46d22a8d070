import { Injectable } from '@nestjs/common';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { AgentRunRepository } from 'src/modules/runtime/application/ports/agent-run.repository';
import { ActionTarget, AnswerSink } from 'src/modules/runtime/application/ports/answer-sink';
import type { Run } from 'src/modules/runtime/application/run';
import { AgentRun, StepCall } from 'src/modules/runtime/domain/agent-run';
import type { ActionOutcome, ActionStatus, RunAction } from 'src/modules/runtime/domain/run-action';

export const EXPIRED_TEXT =
  'Nobody approved this tool call in time, so it did not run. Tell the user it needs their approval.';

/**
 * The tool calls of runs: recorded when a step asks for them, settled once (those that need
 * approval once answered, see `ToolCallApprovalsService`). Each change writes its event for the
 * message's stream in the same transaction, and keeps the conversation's `actionRequired` true
 * while a call waits for its approver.
 */
@Injectable()
export class AgentActionsService {
  constructor(
    private readonly runs: AgentRunRepository,
    private readonly sink: AnswerSink,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * Records a step's calls: `running`, or `blocked_validation_required` until `approvalDeadline`
   * for those that need approval (and the approver must now act in the conversation); with them,
   * the text the step wrote, for a runner that resumes the run.
   */
  record(
    run: Run,
    step: { step: number; text: string },
    calls: StepCall[],
    approvalDeadline: Date,
  ): Promise<RunAction[]> {
    const { caller, conversation } = run;
    return this.unitOfWork.run(async () => {
      await this.runs.recordStepText(caller.workspaceId, run.runId, step.step, step.text);
      const recorded = await this.runs.insertActions(
        AgentRun.stepCalls({ id: run.runId, workspaceId: caller.workspaceId }, step.step, calls, {
          approverId: caller.userId,
          deadline: approvalDeadline,
        }),
      );
      for (const action of recorded) await this.sink.announceCall(run, action);
      if (recorded.some((action) => action.status === 'blocked_validation_required'))
        await this.sink.requireAction(conversation, caller.userId, true);
      return recorded;
    });
  }

  /**
   * Says, on the message, why toolset entries offer nothing to this run (a server no longer shared
   * to a space the member can access, a server not configured here), before the model's first step.
   */
  recordUnavailable(run: Run, servers: { name: string; reason: string }[]): Promise<void> {
    return this.unitOfWork.run(async () => {
      const recorded = await this.runs.insertActions(
        AgentRun.unavailableCalls({ id: run.runId, workspaceId: run.caller.workspaceId }, servers),
      );
      for (const action of recorded) await this.sink.announceSettled(run, action);
    });
  }

  /**
   * Settles a call that is `from` and writes its event: `agent_action_success` when it succeeded,
   * `tool_error` otherwise. False when another outcome came first. `dataSpaceSIds`, the restricted
   * spaces whose data the run brought in, join the conversation's requested spaces in the same
   * transaction, announced before the event, so only their members ever read the output.
   */
  settle(
    target: ActionTarget,
    action: RunAction,
    from: ActionStatus,
    outcome: ActionOutcome,
    dataSpaceSIds: readonly string[] = [],
  ): Promise<boolean> {
    return this.unitOfWork.run(async () => {
      if (!(await this.runs.settleAction(action.workspaceId, action.id, from, outcome))) return false;
      await this.sink.requestSpaces(target.conversation, dataSpaceSIds);
      await this.sink.announceSettled(target, { ...action, ...outcome });
      if (from === 'blocked_validation_required') await this.refreshActionRequired(action);
      return true;
    });
  }

  /**
   * The call of a running action starts. An approved call keeps its deadline until then, so a run
   * resumed after a restart runs the approved calls that never started, and fails those that did.
   */
  markStarted(action: RunAction): Promise<void> {
    return this.runs.markActionStarted(action.workspaceId, action.id);
  }

  /** An approved call moves to `running` (its run executes it); false when it no longer waited. */
  approve(action: RunAction): Promise<boolean> {
    return this.unitOfWork.run(async () => {
      const moved = await this.runs.transitionAction(
        action.workspaceId,
        action.id,
        'blocked_validation_required',
        'running',
      );
      if (moved) await this.refreshActionRequired(action);
      return moved;
    });
  }

  /**
   * Declines the calls of a message that still wait for approval, each with its event, in the
   * current transaction: nobody needs to answer them any more. Answers those declined.
   */
  async declineWaiting(
    target: ActionTarget & { message: { id: number } },
    text: string,
  ): Promise<RunAction[]> {
    const { workspaceId } = target.conversation;
    const waiting = (await this.runs.listActionsOfMessages(workspaceId, [target.message.id])).filter(
      (action) => action.status === 'blocked_validation_required',
    );
    const outcome = {
      status: 'denied' as const,
      output: [{ type: 'text' as const, text }],
      executionDurationMs: 0,
    };
    const declined: RunAction[] = [];
    for (const action of waiting) {
      if (!(await this.runs.settleAction(workspaceId, action.id, 'blocked_validation_required', outcome)))
        continue;
      declined.push(action);
      await this.sink.announceSettled(target, { ...action, ...outcome });
    }
    if (waiting.length > 0) await this.refreshActionRequired(waiting[0]);
    return declined;
  }

  /** The call as it is now (a run polls a waiting call's status). */
  current(action: RunAction): Promise<RunAction | null> {
    return this.runs.findAction(action.workspaceId, action.id);
  }

  /** The approver must act while any call of the conversation still waits for them. */
  private async refreshActionRequired(action: RunAction): Promise<void> {
    if (action.approverId === null) return;
    const waiting = await this.runs.awaitsApprover(
      action.workspaceId,
      action.conversationId,
      action.approverId,
    );
    await this.sink.requireAction(
      { id: action.conversationId, workspaceId: action.workspaceId },
      action.approverId,
      waiting,
    );
  }
}
