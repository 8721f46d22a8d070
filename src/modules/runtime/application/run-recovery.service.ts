import { Injectable } from '@nestjs/common';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { AgentsService } from 'src/modules/agents/application/agents.service';
import { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
import { AgentActionsService } from 'src/modules/conversations/application/agent-actions.service';
import { AgentMessagesService, Run } from 'src/modules/conversations/application/agent-messages.service';
import { RunStateRepository, StaleRun } from 'src/modules/runtime/application/ports/run-state.repository';

/** Stale runs handled per sweep; the next sweep takes the rest. */
const STALE_BATCH = 100;
/** The key id a resumed run's caller carries: it acts for the member, not through any key of theirs. */
const RESUMED_RUN_KEY = 'resumed_run';

/**
 * The runs of runners that stopped (this process before a restart included): a run that waits for
 * an approval is taken over and resumed, since its state is all in the database; any other is
 * failed as interrupted, since its answer was cut mid-way.
 */
@Injectable()
export class RunRecoveryService {
  constructor(
    private readonly runState: RunStateRepository,
    private readonly agentMessages: AgentMessagesService,
    private readonly actions: AgentActionsService,
    private readonly workspaces: WorkspacesService,
    private readonly agents: AgentsService,
    private readonly log: OperatorLog,
  ) {}

  /** Fails or takes over the runs silent for `staleAfterMs`; answers those to resume, now this runner's. */
  async recover(runnerId: string, staleAfterMs: number, reason: string): Promise<Run[]> {
    const stale = await this.runState.findStale(staleAfterMs, STALE_BATCH);
    const toFail: StaleRun[] = [];
    const resumed: Run[] = [];
    for (const ref of stale) {
      const run = (await this.waitsForApproval(ref)) ? await this.rebuild(ref) : null;
      if (!run) toFail.push(ref);
      else if (await this.runState.takeOver(runnerId, ref, staleAfterMs)) resumed.push(run);
    }
    const failed = await this.agentMessages.failInterrupted(toFail, reason);
    if (failed > 0)
      this.log.warn(RunRecoveryService.name, { failed }, `Failed ${failed} interrupted agent run(s)`);
    if (resumed.length > 0)
      this.log.info(
        RunRecoveryService.name,
        { resumed: resumed.length },
        `Resumed ${resumed.length} agent run(s) waiting for approval`,
      );
    return resumed;
  }

  /** A call of the run waits for an answer, or was approved and never started. */
  private async waitsForApproval(ref: StaleRun): Promise<boolean> {
    const actions = await this.actions.listForMessage(ref.workspaceId, ref.messageId);
    return actions.some(
      (action) =>
        action.status === 'blocked_validation_required' ||
        (action.status === 'running' && action.approvalDeadline !== null),
    );
  }

  /** The run as its first runner held it: the member it acts for (with their access now) and the agent. */
  private async rebuild(ref: StaleRun): Promise<Run | null> {
    const [running, userId] = await Promise.all([
      this.agentMessages.findRunning(ref),
      this.runState.runUserId(ref),
    ]);
    if (!running || userId === null) return null;
    const [caller] = await this.workspaces.callersFor([
      { workspaceId: ref.workspaceId, userId, keyId: RESUMED_RUN_KEY },
    ]);
    if (!caller) return null;
    const [details] = await this.agents.describe(caller, [running.message.agentSId]);
    if (!details) return null;
    return { caller, ...running, agent: details.agent };
  }
}
