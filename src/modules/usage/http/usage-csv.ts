import type { UsageReportView, UsageRowView } from 'src/modules/usage/application/views/usage-report.view';

const GROUP_COLUMNS = {
  day: ['day'],
  agent: ['agentSId'],
  user: ['userSId'],
  model: ['modelProviderId', 'modelId'],
} as const;

const SUM_COLUMNS = [
  'runs',
  'messages',
  'promptTokens',
  'completionTokens',
  'reasoningTokens',
  'durationMs',
] as const;

/**
 * A spreadsheet reads a text cell as a formula when `=`, `+`, `-` or `@` (or their full-width forms)
 * starts it, or starts a part of it that a locale's separator (`;`, `|`, a tab…) splits off.
 */
const FORMULA = /(?:^|[,;|\t\r\n])\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/;

/**
 * A report's rows as CSV (RFC 4180: a header row, CRLF line ends). Every text cell is quoted, so no
 * locale's separator splits it; one that holds a formula is prefixed with `'`, so opening it runs
 * nothing.
 */
export function usageCsv(report: UsageReportView): string {
  const columns: (keyof UsageRowView)[] = [
    ...report.groupBy.flatMap((group) => GROUP_COLUMNS[group]),
    ...SUM_COLUMNS,
  ];
  const lines = [
    columns.map(quoted),
    ...report.rows.map((row) => columns.map((column) => cell(row[column]))),
  ];
  return lines.map((line) => `${line.join(',')}\r\n`).join('');
}

function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  return quoted(FORMULA.test(value) ? `'${value}` : value);
}

function quoted(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}
