import { ApiProperty } from '@nestjs/swagger';
import type * as views from 'src/modules/usage/application/views/usage-report.view';
import type { TokenBudgetView } from 'src/modules/usage/application/views/token-budget.view';
import type { UsageGroup } from 'src/modules/usage/domain/usage-query';

export class UsageTotals implements views.UsageTotalsView {
  /**
   * Agent runs started (one per agent message generated, retries included).
   * @example 42
   */
  @ApiProperty({ type: 'integer' })
  runs!: number;

  /**
   * User messages those runs answered (a message mentioning two agents counts once).
   * @example 30
   */
  @ApiProperty({ type: 'integer' })
  messages!: number;

  /**
   * Tokens sent to the models, as their providers reported them.
   * @example 182340
   */
  @ApiProperty({ type: 'integer' })
  promptTokens!: number;

  /**
   * Tokens the models produced, reasoning included.
   * @example 9120
   */
  @ApiProperty({ type: 'integer' })
  completionTokens!: number;

  /**
   * Of the completion tokens, those spent reasoning.
   * @example 2048
   */
  @ApiProperty({ type: 'integer' })
  reasoningTokens!: number;

  /**
   * Wall-clock time of the finished runs, from start to outcome (approval waits included).
   * @example 315400
   */
  @ApiProperty({ type: 'integer' })
  durationMs!: number;
}

export class UsageRow extends UsageTotals implements views.UsageRowView {
  /**
   * The UTC day the runs started (with `groupBy` day).
   * @example 2026-11-02
   */
  day?: string;

  /**
   * The agent (with `groupBy` agent); null for runs recorded before usage was kept.
   * @example Ag4tB7nM1q
   */
  agentSId?: string | null;

  /**
   * The member the runs acted for (with `groupBy` user).
   * @example Us8kP2rT5w
   */
  userSId?: string | null;

  /**
   * The model's provider (with `groupBy` model).
   * @example openai
   */
  modelProviderId?: string | null;

  /**
   * The model (with `groupBy` model).
   * @example gpt-4o-mini
   */
  modelId?: string | null;
}

export class UsageReportResponse implements views.UsageReportView {
  /** @example 2026-11-01T00:00:00.000Z */
  start!: string;

  /** @example 2026-12-01T00:00:00.000Z */
  end!: string;

  @ApiProperty({ enum: ['day', 'agent', 'user', 'model'], isArray: true, example: ['agent', 'day'] })
  groupBy!: UsageGroup[];

  rows!: UsageRow[];

  total!: UsageTotals;
}

export class TokenBudgetResponse implements TokenBudgetView {
  /**
   * The budget that applies; null when none does.
   * @example 5000000
   */
  @ApiProperty({ type: 'integer', nullable: true, example: 5000000 })
  monthlyTokens!: number | null;

  /**
   * Where the budget comes from: the workspace's setting, the service's default, or none.
   * @example workspace
   */
  source!: 'workspace' | 'configuration' | 'none';

  /**
   * Prompt and completion tokens of the runs started this month (UTC).
   * @example 1284000
   */
  @ApiProperty({ type: 'integer' })
  usedTokens!: number;

  /** @example 2026-11-01T00:00:00.000Z */
  periodStart!: string;

  /**
   * When the month's count starts again: the first instant of next month, UTC.
   * @example 2026-12-01T00:00:00.000Z
   */
  renewsAt!: string;

  /**
   * Whether new agent runs are refused until `renewsAt`.
   * @example false
   */
  spent!: boolean;
}
