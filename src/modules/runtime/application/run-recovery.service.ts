import { Injectable } from '@nestjs/common';
import { OperatorLog } from 'src/platform/logging/operator-log';
import type { Caller } from 'src/platform/auth/caller';
import { AgentDetails, AgentsService } from 'src/modules/agents/agents.api';
import { WorkspacesService } from 'src/modules/identity/identity.api';
import { AgentRunRepository } from 'src/modules/runtime/application/ports/agent-run.repository';
import { AnswerSink } from 'src/modules/runtime/application/ports/answer-sink';
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
    private readonly sink: AnswerSink,
    private readonly workspaces: WorkspacesService,
    private readonly agents: AgentsService,
    private readonly log: OperatorLog,
  ) {}

  /** Gives back the holds of ended runs whose process stopped before it did. */
  releaseEndedHolds(): Promise<void> {
    return this.runs.releaseEndedHolds(STALE_BATCH);
  }

  /** Takes over the runs silent for `staleAfterMs`; answers those to resume, now this runner's, and fails the others. */
  async recover(runnerId: string, staleAfterMs: number, reason: string): Promise<Run[]> {
    const stale = await this.runs.findStale(staleAfterMs, STALE_BATCH);
    const toFail: AgentRun[] = [];
    const resumed: Run[] = [];
    const rebuilt = await this.rebuild(stale, runnerId);
    // Only the sweep that takes a run over decides what becomes of it: another sweep (here or in
    // another process) may have taken it meanwhile, and be running it.
    const taken = await this.runs.takeOver(runnerId, stale, staleAfterMs);
    for (const record of stale) {
      if (!taken.has(record.id)) continue;
      const run = rebuilt.get(record.id);
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

  /**
   * The runs as their first runners held them, by run id: the member each acts for (with their
   * access now) and its agent. Read for the whole batch at once (a process that stops hands over
   * all its runs together), so resuming a hundred runs takes a few reads, not a few hundred. A run
   * whose member left, whose message ended or whose agent is gone is not among them.
   */
  private async rebuild(stale: AgentRun[], runnerId: string): Promise<Map<number, Run>> {
    const records = stale.filter((record): record is AgentRun & { userId: number } => record.userId !== null);
    const workspaceIds = [...new Set(records.map((record) => record.workspaceId))];
    const [answers, callers] = await Promise.all([
      Promise.all(
        workspaceIds.map((workspaceId) =>
          this.sink.findAnswers(
            workspaceId,
            records.filter((record) => record.workspaceId === workspaceId).map((record) => record.messageId),
          ),
        ),
      ),
      this.workspaces.callersFor(
        records.map(({ workspaceId, userId }) => ({ workspaceId, userId, keyId: RESUMED_RUN_KEY })),
      ),
    ]);
    const answerOf = new Map(answers.flat().map((answer) => [answer.message.id, answer]));
    const members = new Map<string, { caller: Caller; agentSIds: Set<string> }>();
    for (const [index, record] of records.entries()) {
      const [caller, answer] = [callers[index], answerOf.get(record.messageId)];
      if (!caller || answer?.message.status !== 'created') continue;
      const key = `${caller.workspaceId}:${caller.userId}`;
      const member = members.get(key) ?? { caller, agentSIds: new Set<string>() };
      member.agentSIds.add(answer.message.agentSId);
      members.set(key, member);
    }
    const agents = new Map<string, AgentDetails['agent']>();
    await Promise.all(
      [...members].map(async ([key, { caller, agentSIds }]) => {
        for (const details of await this.agents.describe(caller, [...agentSIds]))
          agents.set(`${key}:${details.agent.sId}`, details.agent);
      }),
    );
    const runs = new Map<number, Run>();
    for (const record of records) {
      const answer = answerOf.get(record.messageId);
      const member = members.get(`${record.workspaceId}:${record.userId}`);
      const agent = answer && agents.get(`${record.workspaceId}:${record.userId}:${answer.message.agentSId}`);
      if (!answer || !member || !agent || answer.message.status !== 'created') continue;
      runs.set(record.id, { ...answer, caller: member.caller, agent, runId: record.id, runnerId });
    }
    return runs;
  }

  /**
   * Fails the agent messages of runs cut mid-answer (`run_interrupted`, saying why), which ends
   * their runs; returns how many. A run whose message ended without it hearing (or is gone) ends as
   * its message did, so that no sweep finds it again.
   */
  private async failInterrupted(stale: AgentRun[], reason: string): Promise<number> {
    let failed = 0;
    for (const record of stale) {
      const [answer] = await this.sink.findAnswers(record.workspaceId, [record.messageId]);
      if (answer?.message.status !== 'created') {
        await this.runs.finish(record.workspaceId, record.messageId, answer?.message.status ?? 'failed');
        continue;
      }
      const done = await this.sink.finish(answer, {
        status: 'failed',
        content: answer.message.content,
        error: { code: 'run_interrupted', message: reason },
      });
      if (done) failed++;
    }
    return failed;
  }
}
