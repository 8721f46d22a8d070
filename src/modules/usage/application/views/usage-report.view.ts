import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { UsageGroup } from 'src/modules/usage/domain/usage-query';
import type { UsageTotals } from 'src/modules/usage/domain/usage-totals';

/** The sums of a report's rows, and of its total. */
@ApiSchema({ name: 'UsageTotals' })
export class UsageTotalsView implements UsageTotals {
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

/** One row of a report: its groups (only those grouped by) and their sums. */
@ApiSchema({ name: 'UsageRow' })
export class UsageRowView extends UsageTotalsView {
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

/** A report over `start` (included) to `end` (excluded), both ISO 8601. */
@ApiSchema({ name: 'UsageReportResponse' })
export class UsageReportView {
  /** @example 2026-11-01T00:00:00.000Z */
  start!: string;

  /** @example 2026-12-01T00:00:00.000Z */
  end!: string;

  @ApiProperty({ enum: ['day', 'agent', 'user', 'model'], isArray: true, example: ['agent', 'day'] })
  groupBy!: UsageGroup[];

  rows!: UsageRowView[];

  total!: UsageTotalsView;
}
