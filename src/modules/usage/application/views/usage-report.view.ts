import type { UsageGroup } from 'src/modules/usage/domain/usage-query';
import type { UsageTotals } from 'src/modules/usage/domain/usage-totals';

/** The sums of a report's rows, and of its total. */
export type UsageTotalsView = UsageTotals;

/** One row of a report: its groups (only those grouped by) and their sums. */
export interface UsageRowView extends UsageTotalsView {
  day?: string;
  agentSId?: string | null;
  userSId?: string | null;
  modelProviderId?: string | null;
  modelId?: string | null;
}

export interface UsageReportView {
  /** ISO 8601, included. */
  start: string;
  /** ISO 8601, excluded. */
  end: string;
  groupBy: UsageGroup[];
  rows: UsageRowView[];
  total: UsageTotalsView;
}
