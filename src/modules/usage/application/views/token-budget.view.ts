import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** The budget of the month that `periodStart` (its first instant, UTC) opens. */
@ApiSchema({ name: 'TokenBudgetResponse' })
export class TokenBudgetView {
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
