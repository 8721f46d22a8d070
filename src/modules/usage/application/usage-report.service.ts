import { Injectable } from '@nestjs/common';
import type { Caller } from 'src/platform/auth/caller';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { WorkspacesService } from 'src/modules/identity/identity.api';
import { RunUsageRecords } from 'src/modules/usage/application/ports/run-usage-records';
import type { UsageReportView, UsageRowView } from 'src/modules/usage/application/views/usage-report.view';
import { type RawUsageQuery, parseUsageQuery } from 'src/modules/usage/domain/usage-query';
import type { UsageGroupTotals, UsageTotals } from 'src/modules/usage/domain/usage-totals';

/** The most rows one report answers: past it, the caller narrows the range or groups by less. */
export const MAX_USAGE_ROWS = 10_000;

const NO_RUNS: UsageTotals = {
  runs: 0,
  messages: 0,
  promptTokens: 0,
  completionTokens: 0,
  reasoningTokens: 0,
  durationMs: 0,
};

/** What the agent runs of a workspace cost over a range, grouped as asked, with the range's total. */
@Injectable()
export class UsageReportService {
  constructor(
    private readonly runs: RunUsageRecords,
    private readonly workspaces: WorkspacesService,
  ) {}

  async report(caller: Caller, raw: RawUsageQuery): Promise<UsageReportView> {
    const { range, groupBy } = parseUsageQuery(raw);
    const [groups, [total]] = await Promise.all([
      this.runs.sum(caller.workspaceId, range, groupBy, MAX_USAGE_ROWS + 1),
      this.runs.sum(caller.workspaceId, range, [], 1),
    ]);
    if (groups.length > MAX_USAGE_ROWS) {
      throw new InvalidRequestError(
        `The report would have more than ${MAX_USAGE_ROWS} rows: narrow the range or group by less.`,
      );
    }
    const userIds = groups.flatMap(({ key }) => (typeof key.userId === 'number' ? [key.userId] : []));
    const users = userIds.length === 0 ? [] : await this.workspaces.usersByIds(userIds);
    const userSIds = new Map(users.map((user) => [user.id, user.sId]));
    return {
      start: range.start.toISOString(),
      end: range.end.toISOString(),
      groupBy,
      rows: groups.map((group) => row(group, userSIds)),
      total: total ? totalsOf(total) : NO_RUNS,
    };
  }
}

function row(group: UsageGroupTotals, userSIds: Map<number, string>): UsageRowView {
  const { key } = group;
  return {
    ...(key.day !== undefined && { day: key.day }),
    ...(key.agentSId !== undefined && { agentSId: key.agentSId }),
    ...(key.userId !== undefined && {
      userSId: key.userId === null ? null : (userSIds.get(key.userId) ?? null),
    }),
    ...(key.modelId !== undefined && { modelProviderId: key.modelProviderId ?? null, modelId: key.modelId }),
    ...totalsOf(group),
  };
}

function totalsOf(totals: UsageTotals): UsageTotals {
  const { runs, messages, promptTokens, completionTokens, reasoningTokens, durationMs } = totals;
  return { runs, messages, promptTokens, completionTokens, reasoningTokens, durationMs };
}
