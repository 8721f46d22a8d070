import { Injectable } from '@nestjs/common';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { AgentsService } from 'src/modules/agents/application/agents.service';
import { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
import { AgentMessagesService } from 'src/modules/conversations/application/agent-messages.service';
import { AgentRunRepository } from 'src/modules/runtime/application/ports/agent-run.repository';
import type { Run } from 'src/modules/runtime/application/run';
import type { AgentRun } from 'src/modules/runtime/domain/agent-run';

/** Stale runs handled per sweep; the next sweep takes the rest. */
const STALE_BATCH = 100;
/** The key id a resumed run's caller carries: it acts for the member, not through any key of theirs. */
const RESUMED_RUN_KEY = 'resumed_run';

/**
 * The runs of runners that stopped or handed them over (this process before a restart included):
 * each is taken over and resumed from its last step, since its state is all in the database. A run
 * that cannot be (its member left, its agent is gone) fails as interrupted. Ended runs whose process
 * stopped before giving back their tokens' holds give them back here.
 */
@Injectable()
export class RunRecoveryService {
  constructor(
    private readonly runs: AgentRunRepository,
    private readonly agentMessages: AgentMessagesService,
    private readonly workspaces: WorkspacesService,
    private readonly agents: AgentsService,
    private readonly log: OperatorLog,
  ) {}

  /** Takes over the runs silent for `staleAfterMs`; answers those to resume, now this runner's, and fails the others. */
  async recover(runnerId: string, staleAfterMs: number, reason: string): Promise<Run[]> {
    await this.runs.releaseEndedHolds(STALE_BATCH);
    const stale = await this.runs.findStale(staleAfterMs, STALE_BATCH);
    const toFail: AgentRun[] = [];
    const resumed: Run[] = [];
    for (const record of stale) {
      const run = await this.rebuild(record, runnerId);
      // Only the sweep that takes a run over decides what becomes of it: another sweep (here or
      // in another process) may have taken it meanwhile, and be running it.
      if (!(await this.runs.takeOver(runnerId, record, staleAfterMs))) continue;
      if (run) resumed.push(run);
      else toFail.push(record);
    }
    const failed = await this.failInterrupted(toFail, reason);
    if (failed > 0)
      this.log.warn(RunRecoveryService.name, { failed }, `Failed ${failed} interrupted agent run(s)`);
    if (resumed.length > 0)
      this.log.info(
        RunRecoveryService.name,
        { resumed: resumed.length },
        `Resumed ${resumed.length} agent run(s) whose process stopped`,
      );
    return resumed;
  }

  /** The run as its first runner held it: the member it acts for (with their access now) and the agent. */
  private async rebuild(record: AgentRun, runnerId: string): Promise<Run | null> {
    if (record.userId === null) return null;
    const [[answer], [caller]] = await Promise.all([
      this.agentMessages.findAnswers(record.workspaceId, [record.messageId]),
      this.workspaces.callersFor([
        { workspaceId: record.workspaceId, userId: record.userId, keyId: RESUMED_RUN_KEY },
      ]),
    ]);
    if (answer?.message.status !== 'created' || !caller) return null;
    const [details] = await this.agents.describe(caller, [answer.message.agentSId]);
    if (!details) return null;
    return { ...answer, caller, agent: details.agent, runId: record.id, runnerId };
  }

  /**
   * Fails the agent messages of runs cut mid-answer (`run_interrupted`, saying why), which ends
   * their runs; returns how many. A run whose message ended without it hearing (or is gone) ends as
   * its message did, so that no sweep finds it again.
   */
  private async failInterrupted(stale: AgentRun[], reason: string): Promise<number> {
    let failed = 0;
    for (const record of stale) {
      const [answer] = await this.agentMessages.findAnswers(record.workspaceId, [record.messageId]);
      if (answer?.message.status !== 'created') {
        await this.runs.finish(record.workspaceId, record.messageId, answer?.message.status ?? 'failed');
        continue;
      }
      const done = await this.agentMessages.finish(answer, {
        status: 'failed',
        content: answer.message.content,
        error: { code: 'run_interrupted', message: reason },
      });
      if (done) failed++;
    }
    return failed;
  }
}
