import { InvalidRequestError } from 'src/platform/errors/domain-error';

/** What usage rows may be grouped by; several combine (one row per combination met). */
export const USAGE_GROUPS = ['day', 'agent', 'user', 'model'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** The longest range one report covers, so that a report's work stays bounded. */
export const MAX_RANGE_DAYS = 366;

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Runs started from `start` (included) to `end` (excluded). */
export interface UsageRange {
  start: Date;
  end: Date;
}

export interface UsageQuery {
  range: UsageRange;
  groupBy: UsageGroup[];
}

/** A report's query as a caller writes it, before parseUsageQuery reads it. */
export interface RawUsageQuery {
  start?: string;
  end?: string;
  groupBy?: string;
}

/**
 * A report's query as a caller writes it: `start` and `end` as ISO 8601 dates or date-times; a
 * date alone is midnight UTC, and as `end` it includes its whole day. `groupBy` lists groups
 * separated by commas, `day` when left out.
 */
export function parseUsageQuery(raw: RawUsageQuery): UsageQuery {
  const start = instant('start', raw.start, false);
  const end = instant('end', raw.end, true);
  if (end.getTime() <= start.getTime()) throw new InvalidRequestError('end: must come after start.');
  if (end.getTime() - start.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    throw new InvalidRequestError(`start, end: a report covers at most ${MAX_RANGE_DAYS} days.`);
  }
  return { range: { start, end }, groupBy: groups(raw.groupBy) };
}

function instant(name: string, value: string | undefined, endOfDay: boolean): Date {
  if (value === undefined || value === '') {
    throw new InvalidRequestError(`${name}: required, an ISO 8601 date such as 2026-11-01.`);
  }
  const dateOnly = DATE.test(value);
  const parsed = new Date(dateOnly ? `${value}T00:00:00Z` : value);
  // The round trip refuses dates that do not exist (2026-02-30), which Date would roll over.
  const valid =
    (dateOnly || DATE_TIME.test(value)) &&
    !Number.isNaN(parsed.getTime()) &&
    (!dateOnly || parsed.toISOString().slice(0, 10) === value);
  if (!valid) {
    throw new InvalidRequestError(
      `${name}: not an ISO 8601 date or date-time, such as 2026-11-01 or 2026-11-01T09:30:00Z.`,
    );
  }
  return dateOnly && endOfDay ? new Date(parsed.getTime() + DAY_MS) : parsed;
}

function groups(value: string | undefined): UsageGroup[] {
  if (value === undefined) return ['day'];
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(USAGE_GROUPS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new InvalidRequestError(
      `groupBy: ${unknown.map((name) => `"${name}"`).join(', ')} is not one of ${USAGE_GROUPS.join(', ')} (separate several with commas).`,
    );
  }
  if (new Set(names).size !== names.length)
    throw new InvalidRequestError('groupBy: a group is listed twice.');
  return names as UsageGroup[];
}
