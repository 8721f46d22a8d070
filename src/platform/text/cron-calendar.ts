import { CronExpressionParser, CronFieldCollection } from 'cron-parser';

/**
 * How far ahead a firing is looked for: eight years, the longest wait of a leap-day schedule
 * (29 February 2096, then 2104). A schedule with no firing in that time is refused, and a running
 * one whose next firing lies beyond it expires.
 */
export const CRON_SEARCH_DAYS = 8 * 366;

export interface CronSchedule {
  cron: string;
  timezone: string;
}

/** What a bounded search for a schedule's next firing found, and what it cost. */
export interface CronSearch {
  /** The first firing strictly after the start, or null when none is within the bound. */
  next: Date | null;
  /** Calendar days compared with the expression (at most `CRON_SEARCH_DAYS`). */
  daysExamined: number;
  /** Wall-clock times converted to instants, on the matching days examined (at most 1,440 a day). */
  timesExamined: number;
}

/** A date on the calendar, without a time or a timezone; `weekday` 0 is Sunday. */
interface CivilDay {
  year: number;
  month: number;
  day: number;
  weekday: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** UTC offsets lie within −12:00 and +14:00: bounds of the instants a local day can span. */
const MAX_AHEAD_OF_UTC_MS = 14 * 60 * MINUTE_MS;
const MAX_BEHIND_UTC_MS = 12 * 60 * MINUTE_MS;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
}

/** The day after, by plain arithmetic: a scan of years of days stays cheap. */
function nextDay({ year, month, day, weekday }: CivilDay): CivilDay {
  const following = (weekday + 1) % 7;
  if (day < daysInMonth(year, month)) return { year, month, day: day + 1, weekday: following };
  return month < 12
    ? { year, month: month + 1, day: 1, weekday: following }
    : { year: year + 1, month: 1, day: 1, weekday: following };
}

/**
 * Whether a calendar day matches the expression's month, day-of-month and day-of-week fields, by
 * cron-parser's rules (either day field when both are restricted; `L`; `#` for the nth weekday).
 */
function dayMatcher(fields: CronFieldCollection): (date: CivilDay) => boolean {
  const months = new Set<number>(fields.month.values);
  const { dayOfMonth, dayOfWeek } = fields;
  const monthDays = new Set<unknown>(dayOfMonth.values);
  const weekdays = new Set<unknown>(dayOfWeek.values);
  const lastWeekdays = new Set(dayOfWeek.values.map((value) => parseInt(String(value).charAt(0), 10) % 7));
  const nth = dayOfWeek.nthDay;
  return ({ year, month, day, weekday }) => {
    if (!months.has(month)) return false;
    const lastDay = daysInMonth(year, month);
    const matchedDom = monthDays.has(day) || (dayOfMonth.hasLastChar && day === lastDay);
    const matchedDow =
      (weekdays.has(weekday) && (nth <= 0 || Math.ceil(day / 7) === nth)) ||
      (dayOfWeek.hasLastChar && day > lastDay - 7 && lastWeekdays.has(weekday));
    if (!dayOfMonth.isWildcard && !dayOfWeek.isWildcard) return matchedDom || matchedDow;
    if (!dayOfMonth.isWildcard) return matchedDom;
    return !dayOfWeek.isWildcard ? matchedDow : matchedDom;
  };
}

/**
 * Whether an expression holds cron-parser's `H`, a value it draws at random at every parse: a
 * schedule read again by each pass would fire at other times, closer together than its spacing
 * check saw. The parser reads a month or weekday name (`THU`) before `H`, so those are spared.
 */
function isHashed(cron: string): boolean {
  const fields = cron.trim().split(/\s+/);
  return fields.some((field, i) => {
    const named = i >= fields.length - 2;
    return (named ? field.replace(/[a-z]{3}/gi, '') : field).includes('H');
  });
}

/** The wall-clock reading of an instant in a timezone, as if it were UTC (ms since the epoch). */
function wallClock(format: Intl.DateTimeFormat, instant: number): number {
  const parts = format.formatToParts(instant);
  const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
}

function civilDay(wall: number): CivilDay {
  const date = new Date(wall);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday: date.getUTCDay(),
  };
}

/**
 * The instant a wall-clock time names, as JavaScript's Temporal does it ("compatible"): a time that
 * a daylight-saving change repeats is its first occurrence; one that it skips is moved forward by
 * the length of the gap (02:30 becomes 03:30).
 */
function instantOf(format: Intl.DateTimeFormat, wall: number): number {
  const offsetBefore = wallClock(format, wall - DAY_MS) - (wall - DAY_MS);
  const offsetAfter = wallClock(format, wall + DAY_MS) - (wall + DAY_MS);
  const candidates = [wall - offsetBefore, wall - offsetAfter].filter(
    (instant) => wallClock(format, instant) === wall,
  );
  return candidates.length > 0 ? Math.min(...candidates) : wall - offsetBefore;
}

/**
 * A cron schedule read once: which days match, at which times of day, in which timezone. Every
 * search is bounded by `CRON_SEARCH_DAYS`; cron-parser only parses, since its own walk is
 * unbounded in time (seconds of event loop for `0 0 * 2 1#5`, a fifth Monday in February every 28
 * years or so; 10,000 steps on a Lord Howe Island daylight-saving change, then an error).
 */
export class CronCalendar {
  private readonly matches: (date: CivilDay) => boolean;
  /** Minutes after midnight, sorted. */
  private readonly times: number[];
  private readonly format: Intl.DateTimeFormat;

  /** Throws cron-parser's error when `schedule.cron` is not an expression, and one of its own for `H`. */
  constructor(schedule: CronSchedule) {
    if (isHashed(schedule.cron)) {
      throw new Error(
        'H (a hashed value) is not accepted: cron-parser draws it again at every reading, so the times would move; write the minute and hour, e.g. "17 * * * *"',
      );
    }
    const fields = CronExpressionParser.parse(schedule.cron).fields;
    this.matches = dayMatcher(fields);
    const times = fields.hour.values.flatMap((hour) =>
      fields.minute.values.map((minute) => hour * 60 + minute),
    );
    this.times = [...new Set(times)].sort((a, b) => a - b);
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone: schedule.timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /**
   * The first firing strictly after `after`: matching days are looked for one by one, and a
   * matching day's times are converted in the timezone.
   */
  nextAfter(after: Date): CronSearch {
    let day = civilDay(wallClock(this.format, after.getTime()));
    let timesExamined = 0;
    for (let offset = 0; offset < CRON_SEARCH_DAYS; offset += 1, day = nextDay(day)) {
      if (!this.matches(day)) continue;
      const { next, converted } = this.firstFiringOn(day, after.getTime());
      timesExamined += converted;
      if (next !== null) return { next: new Date(next), daysExamined: offset + 1, timesExamined };
    }
    return { next: null, daysExamined: CRON_SEARCH_DAYS, timesExamined };
  }

  /**
   * Whether two firings can come less than `minutes` apart on the wall clock: two times of one day,
   * or the last of a day and the first of the next when two consecutive days match within the
   * search bound. A daylight-saving change can bring two firings closer once; that is accepted.
   */
  firesWithin(minutes: number, from: Date): boolean {
    const { times } = this;
    if (times.some((time, i) => i > 0 && time - times[i - 1] < minutes)) return true;
    if (24 * 60 - times[times.length - 1] + times[0] >= minutes) return false;
    let day = civilDay(wallClock(this.format, from.getTime()));
    let matched = this.matches(day);
    for (let offset = 1; offset < CRON_SEARCH_DAYS; offset += 1) {
      day = nextDay(day);
      const matches = this.matches(day);
      if (matched && matches) return true;
      matched = matches;
    }
    return false;
  }

  /**
   * The first firing strictly after `after` among the times of one matching day. A day without a
   * daylight-saving change has one offset, taken once; the day of a change converts each time.
   */
  private firstFiringOn(day: CivilDay, after: number): { next: number | null; converted: number } {
    const midnight = Date.UTC(day.year, day.month - 1, day.day);
    const dayStart = midnight - MAX_AHEAD_OF_UTC_MS;
    const dayEnd = midnight + DAY_MS + MAX_BEHIND_UTC_MS;
    const offset = wallClock(this.format, dayStart) - dayStart;
    const steady = wallClock(this.format, dayEnd) - dayEnd === offset;
    let next: number | null = null;
    let converted = 0;
    for (const minutes of this.times) {
      const wall = midnight + minutes * MINUTE_MS;
      const instant = steady ? wall - offset : instantOf(this.format, wall);
      converted += 1;
      if (instant > after && (next === null || instant < next)) next = instant;
      // Without a change, instants follow the sorted times: the first one after `after` is the answer.
      if (steady && next !== null) break;
    }
    return { next, converted };
  }
}
