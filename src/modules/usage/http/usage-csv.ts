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
 * A report's rows as CSV (RFC 4180: a header row, CRLF line ends, fields quoted when they hold a
 * quote, comma or line break). A text cell a spreadsheet would read as a formula (starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return) is prefixed with `'`, so opening it runs nothing.
 */
export function usageCsv(report: UsageReportView): string {
  const columns: (keyof UsageRowView)[] = [
    ...report.groupBy.flatMap((group) => GROUP_COLUMNS[group]),
    ...SUM_COLUMNS,
  ];
  const lines = [columns.map(field), ...report.rows.map((row) => columns.map((column) => cell(row[column])))];
  return lines.map((line) => `${line.join(',')}\r\n`).join('');
}

function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  return field(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

function field(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
