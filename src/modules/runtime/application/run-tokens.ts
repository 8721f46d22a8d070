import { Injectable } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { AgentRunRepository } from 'src/modules/runtime/application/ports/agent-run.repository';
import { ModelError } from 'src/modules/runtime/application/ports/model-provider';
import type { RunTokens, TokenHold } from 'src/modules/runtime/application/ports/run-tokens';
import { WorkspaceTokenBudget } from 'src/modules/runtime/application/ports/workspace-token-budget';
import { reservedTokens } from 'src/modules/runtime/domain/model-call-reservation';

/**
 * A model call its workspace's monthly budget has no room for: the run ends with the code the
 * post-time refusal answers (`rate_limit_error`), saying when the budget renews.
 */
export class TokenBudgetRefused extends ModelError {
  constructor(monthlyTokens: number, tokens: number, now: Date) {
    const renewsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    super(
      'rate_limit_error',
      `This workspace's monthly token budget of ${monthlyTokens} tokens has no room for the agent's next model call, ` +
        `which reserves ${tokens} tokens until it reports its cost, so it was not made; the budget renews at ${renewsAt.toISOString()}.`,
    );
  }
}

/** No hold: the workspace had no budget when the call started. */
const NONE: TokenHold = { tokens: 0 };

/**
 * Hands each run its `RunTokens`. A hold is recorded on the run, so it lasts as long as the run's
 * lease: the run's end, or its takeover once its process stopped heartbeating, gives back whatever
 * its calls still hold.
 */
@Injectable()
export class RunTokensService {
  constructor(
    private readonly budgets: WorkspaceTokenBudget,
    private readonly runs: AgentRunRepository,
    private readonly clock: Clock,
  ) {}

  of(workspaceId: number, runId: number): RunTokens {
    return {
      reserve: async (request) => {
        const monthlyTokens = await this.budgets.monthlyTokens(workspaceId);
        if (monthlyTokens === null) return NONE;
        const tokens = reservedTokens(request);
        if (await this.runs.reserveTokens(workspaceId, runId, tokens, monthlyTokens)) return { tokens };
        throw new TokenBudgetRefused(monthlyTokens, tokens, this.clock.now());
      },
      settle: async (hold, usage) => {
        if (hold.tokens === 0 && !usage) return;
        await this.runs.settleTokens(workspaceId, runId, hold.tokens, usage);
      },
    };
  }
}
