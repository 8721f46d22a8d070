/**
 * What other contexts use of usage: the one file of it they import (docs/architecture.md,
 * the dependency rules). It re-exports only what they use, so it adds no import cycle.
 */
export { RunUsageRecords } from 'src/modules/usage/application/ports/run-usage-records';
export { TokenBudgetService } from 'src/modules/usage/application/token-budget.service';
export type { UsageGroup, UsageRange } from 'src/modules/usage/domain/usage-query';
export type { UsageGroupTotals } from 'src/modules/usage/domain/usage-totals';
export { UsageConfig } from 'src/modules/usage/usage.config';
export { UsageModule } from 'src/modules/usage/usage.module';
