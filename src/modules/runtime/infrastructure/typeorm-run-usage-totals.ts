import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import type { UsageGroup, UsageGroupTotals, UsageRange } from 'src/modules/usage/usage.api';
import { RunUsageTotals } from 'src/modules/runtime/application/ports/run-usage-totals';

/**
 * Each group's columns of `agent_runs`, and what rows sort by: ids in code-unit order (`COLLATE
 * "C"`) whatever locale the database was created with; the day, digits only, sorts alike in all.
 */
const GROUP_COLUMNS: Record<UsageGroup, { select: string; columns: string[]; order: string[] }> = {
  day: {
    select: `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day`,
    columns: ['day'],
    order: ['day'],
  },
  agent: { select: 'agent_s_id', columns: ['agent_s_id'], order: ['agent_s_id COLLATE "C"'] },
  user: { select: 'user_id', columns: ['user_id'], order: ['user_id'] },
  model: {
    select: 'model_provider_id, model_id',
    columns: ['model_provider_id', 'model_id'],
    order: ['model_provider_id COLLATE "C"', 'model_id COLLATE "C"'],
  },
};

interface UsageRow {
  day?: string;
  agent_s_id?: string | null;
  user_id?: number | null;
  model_provider_id?: string | null;
  model_id?: string | null;
  runs: number;
  messages: number;
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens: number;
  duration_ms: number;
}

/** What runs cost, summed by PostgreSQL over the runs of a workspace started in a range. */
@Injectable()
export class TypeormRunUsageTotals extends RunUsageTotals {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  async sum(
    workspaceId: number,
    range: UsageRange,
    groupBy: UsageGroup[],
    limit: number,
  ): Promise<UsageGroupTotals[]> {
    const selects = groupBy.map((group) => `${GROUP_COLUMNS[group].select}, `).join('');
    const columns = groupBy.flatMap((group) => GROUP_COLUMNS[group].columns);
    const grouping = columns.length === 0 ? '' : `GROUP BY ${columns.join(', ')}`;
    const sortKeys = groupBy.flatMap((group) => GROUP_COLUMNS[group].order);
    const order =
      sortKeys.length === 0 ? '' : `ORDER BY ${sortKeys.map((key) => `${key} NULLS LAST`).join(', ')}`;
    // Sums as float8: exact for integers below 2^53, and read as numbers (bigint comes as text).
    const rows = await this.db.manager().query<UsageRow[]>(
      `SELECT ${selects}count(*)::int AS runs, count(DISTINCT answered_message_id)::int AS messages,
              coalesce(sum(prompt_tokens), 0)::float8 AS prompt_tokens,
              coalesce(sum(completion_tokens), 0)::float8 AS completion_tokens,
              coalesce(sum(reasoning_tokens), 0)::float8 AS reasoning_tokens,
              coalesce(round(sum(extract(epoch FROM finished_at - created_at) * 1000)), 0)::float8 AS duration_ms
         FROM agent_runs
        WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3
        ${grouping} ${order} LIMIT $4`,
      [workspaceId, range.start, range.end, limit],
    );
    return rows.map((row) => ({
      key: {
        ...(groupBy.includes('day') && { day: row.day }),
        ...(groupBy.includes('agent') && { agentSId: row.agent_s_id ?? null }),
        ...(groupBy.includes('user') && { userId: row.user_id ?? null }),
        ...(groupBy.includes('model') && {
          modelProviderId: row.model_provider_id ?? null,
          modelId: row.model_id ?? null,
        }),
      },
      runs: row.runs,
      messages: row.messages,
      promptTokens: row.prompt_tokens,
      completionTokens: row.completion_tokens,
      reasoningTokens: row.reasoning_tokens,
      durationMs: row.duration_ms,
    }));
  }

  async tokensSince(workspaceId: number, since: Date): Promise<number> {
    const [row] = await this.db.hotRead<{ tokens: number }>(
      'run_tokens_since',
      `SELECT coalesce(sum(coalesce(prompt_tokens, 0) + coalesce(completion_tokens, 0)), 0)::float8 AS tokens
         FROM agent_runs WHERE workspace_id = $1 AND created_at >= $2`,
      [workspaceId, since],
    );
    return row.tokens;
  }
}
