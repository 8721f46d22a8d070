import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { integer } from 'src/platform/config/variables';

const usageConfig = ConfigSchema.of({
  defaultMonthlyTokenBudget: integer('USAGE_MONTHLY_TOKEN_BUDGET', {
    default: null,
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    description:
      "Tokens (prompt and completion) a workspace's agent runs may use per calendar month (UTC) when its admins set no budget of their own; once reached, new runs are refused until the month ends. Unset: no budget.",
  }),
});

/** What agent runs may cost: the default monthly token budget of a workspace. */
export abstract class UsageConfig extends configToken(usageConfig) {}
