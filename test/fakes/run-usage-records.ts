import { RunUsageRecords } from 'src/modules/usage/application/ports/run-usage-records';
import type { UsageGroup, UsageRange } from 'src/modules/usage/domain/usage-query';
import type { UsageGroupTotals, UsageKey } from 'src/modules/usage/domain/usage-totals';
import type { InMemoryAgentRunRepository } from 'test/fakes/agent-run-repository';

type Run = ReturnType<InMemoryAgentRunRepository['allRuns']>[number];

/** What runs cost, summed in memory over the runs the in-memory runtime recorded, as PostgreSQL sums them. */
export class InMemoryRunUsageRecords extends RunUsageRecords {
  constructor(private readonly runs: InMemoryAgentRunRepository) {
    super();
  }

  async sum(
    workspaceId: number,
    range: UsageRange,
    groupBy: UsageGroup[],
    limit: number,
  ): Promise<UsageGroupTotals[]> {
    const groups = new Map<string, { key: UsageKey; runs: Run[] }>();
    // Summed without GROUP BY, SQL answers one row, of zeros when no run matches.
    if (groupBy.length === 0) groups.set('{}', { key: {}, runs: [] });
    for (const run of this.runs.allRuns()) {
      if (run.workspaceId !== workspaceId || run.createdAt < range.start || run.createdAt >= range.end)
        continue;
      const key = keyOf(run, groupBy);
      const id = JSON.stringify(key);
      groups.set(id, { key, runs: [...(groups.get(id)?.runs ?? []), run] });
    }
    return [...groups.values()]
      .sort((a, b) => compareKeys(a.key, b.key))
      .slice(0, limit)
      .map(({ key, runs }) => ({
        key,
        runs: runs.length,
        messages: new Set(runs.map((run) => run.answeredMessageId)).size,
        promptTokens: total(runs, (run) => run.promptTokens ?? 0),
        completionTokens: total(runs, (run) => run.completionTokens ?? 0),
        reasoningTokens: total(runs, (run) => run.reasoningTokens ?? 0),
        durationMs: total(runs, (run) =>
          run.finishedAt ? run.finishedAt.getTime() - run.createdAt.getTime() : 0,
        ),
      }));
  }

  async tokensSince(workspaceId: number, since: Date): Promise<number> {
    return total(
      this.runs.allRuns().filter((run) => run.workspaceId === workspaceId && run.createdAt >= since),
      (run) => (run.promptTokens ?? 0) + (run.completionTokens ?? 0),
    );
  }
}

function keyOf(run: Run, groupBy: UsageGroup[]): UsageKey {
  return {
    ...(groupBy.includes('day') && { day: run.createdAt.toISOString().slice(0, 10) }),
    ...(groupBy.includes('agent') && { agentSId: run.agentSId }),
    ...(groupBy.includes('user') && { userId: run.userId }),
    ...(groupBy.includes('model') && { modelProviderId: run.modelProviderId, modelId: run.modelId }),
  };
}

/** Groups in the order they are listed, as SQL's ORDER BY on the same columns. */
function compareKeys(a: UsageKey, b: UsageKey): number {
  for (const field of Object.keys(a) as (keyof UsageKey)[]) {
    const [x, y] = [a[field], b[field]];
    if (x === y) continue;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function total(runs: Run[], value: (run: Run) => number): number {
  return runs.reduce((sum, run) => sum + value(run), 0);
}
