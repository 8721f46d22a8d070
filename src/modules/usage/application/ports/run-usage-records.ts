import type { UsageGroup, UsageRange } from 'src/modules/usage/domain/usage-query';
import type { UsageGroupTotals } from 'src/modules/usage/domain/usage-totals';

export type { UsageGroup, UsageRange, UsageGroupTotals };

/**
 * Port: what agent runs cost, read from their records (the runtime owns them and answers). Every
 * query takes the workspace id; a run counts in the range, day and month in which it started.
 */
export abstract class RunUsageRecords {
  /**
   * The runs started in `range`, summed per combination of `groupBy` met (one group of all of
   * them when it is empty), ordered by the groups in that order (unknown agents, users and models
   * last), at most `limit` groups.
   */
  abstract sum(
    workspaceId: number,
    range: UsageRange,
    groupBy: UsageGroup[],
    limit: number,
  ): Promise<UsageGroupTotals[]>;
  /** The budget's tokens (prompt and completion) of the runs started since `since`. */
  abstract tokensSince(workspaceId: number, since: Date): Promise<number>;
}
