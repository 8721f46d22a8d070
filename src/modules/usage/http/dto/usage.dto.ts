import { IsInt, IsOptional, IsString, Max, Min, ValidateIf } from 'class-validator';

export class UsageQueryDto {
  /**
   * First day (or instant) of the range, included: an ISO 8601 date (midnight UTC) or date-time.
   * @example 2026-11-01
   */
  @IsOptional()
  @IsString()
  start?: string;

  /**
   * Last day of the range, included (a date-time is excluded); at most 366 days after `start`.
   * @example 2026-11-30
   */
  @IsOptional()
  @IsString()
  end?: string;

  /**
   * What rows are grouped by: `day` (UTC), `agent`, `user`, `model`, or several separated by
   * commas (one row per combination met, sorted in the order given); `day` when left out.
   * @example agent,day
   */
  @IsOptional()
  @IsString()
  groupBy?: string;
}

export class SetTokenBudgetDto {
  /**
   * Tokens (prompt and completion) the workspace's agent runs may use per calendar month, UTC;
   * null removes the workspace's budget, so the configured default (if any) applies again.
   * @example 5000000
   */
  @ValidateIf((_, value) => value !== null)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  monthlyTokens!: number | null;
}
