import { Injectable } from '@nestjs/common';
import type { Caller } from 'src/platform/auth/caller';
import { ExpiringCache } from 'src/platform/cache/expiring-cache';
import { Clock } from 'src/platform/clock/clock';
import { RunUsageRecords } from 'src/modules/usage/application/ports/run-usage-records';
import { TokenBudgetRepository } from 'src/modules/usage/application/ports/token-budget.repository';
import type { TokenBudgetView } from 'src/modules/usage/application/views/token-budget.view';
import { TokenBudgetSpent, budgetMonth, budgetSpent } from 'src/modules/usage/domain/token-budget';
import { UsageConfig } from 'src/modules/usage/usage.config';

/** How long a process keeps a workspace's budget to spare a read at every model call. */
const APPLYING_TTL_MS = 5_000;
const APPLYING_MAX_ENTRIES = 10_000;

/**
 * The monthly token budget of a workspace: its admins' setting, else the configured default. Once
 * the month's runs reached it, new runs are refused before anything is written; under it, each
 * model call of a run reserves its tokens first (the runtime holds them), so runs under way stop
 * at the call the budget has no room for.
 */
@Injectable()
export class TokenBudgetService {
  private readonly applying = new ExpiringCache<number, number | null>(APPLYING_TTL_MS, APPLYING_MAX_ENTRIES);

  constructor(
    private readonly budgets: TokenBudgetRepository,
    private readonly runs: RunUsageRecords,
    private readonly config: UsageConfig,
    private readonly clock: Clock,
  ) {}

  async status(caller: Caller): Promise<TokenBudgetView> {
    const now = this.clock.now();
    const month = budgetMonth(now);
    const [own, used] = await Promise.all([
      this.budgets.find(caller.workspaceId),
      this.runs.tokensSince(caller.workspaceId, month.start),
    ]);
    const fallback = this.config.defaultMonthlyTokenBudget;
    const monthlyTokens = own ?? fallback;
    return {
      monthlyTokens,
      source: own !== null ? 'workspace' : fallback !== null ? 'configuration' : 'none',
      usedTokens: used,
      periodStart: month.start.toISOString(),
      renewsAt: month.renewsAt.toISOString(),
      spent: budgetSpent(monthlyTokens, used),
    };
  }

  /** Admins set the workspace's budget, or remove it with null (the configured default applies again). */
  async set(caller: Caller, monthlyTokens: number | null): Promise<TokenBudgetView> {
    await this.budgets.save(caller.workspaceId, monthlyTokens, caller.userId);
    this.applying.delete(caller.workspaceId);
    return this.status(caller);
  }

  /**
   * The budget that applies, as a model call reserves against it: read at most every few seconds
   * per workspace, so a change made on another process reaches this one's calls within that.
   */
  async monthlyTokens(workspaceId: number): Promise<number | null> {
    const now = this.clock.now().getTime();
    const known = this.applying.get(workspaceId, now);
    if (known !== undefined) return known;
    const budget = (await this.budgets.find(workspaceId)) ?? this.config.defaultMonthlyTokenBudget;
    this.applying.set(workspaceId, budget, now);
    return budget;
  }

  /** Refuses (429 `rate_limit_error`, saying when it renews) once the month's tokens reached the budget. */
  async assertMayStartRuns(workspaceId: number): Promise<void> {
    const budget = (await this.budgets.find(workspaceId)) ?? this.config.defaultMonthlyTokenBudget;
    if (budget === null) return;
    const now = this.clock.now();
    const month = budgetMonth(now);
    const used = await this.runs.tokensSince(workspaceId, month.start);
    if (budgetSpent(budget, used)) throw new TokenBudgetSpent(budget, used, month.renewsAt, now);
  }
}
