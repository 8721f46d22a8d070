import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { CronCalendar } from 'src/platform/text/cron-calendar';
import { isIanaTimeZone } from 'src/platform/text/time-zones';
import type { IntervalScheduleConfig, ScheduleConfig } from 'src/modules/triggers/domain/trigger';

/** The shortest time between two firings of a schedule. */
export const MIN_SPACING_MINUTES = 5;
export const INTERVAL_DAYS_MAX = 366;

const DAY_MS = 24 * 3600 * 1000;
/** Half a day: far from any wall-clock time of the day before or after, whatever a DST change does. */
const HALF_DAY_MS = DAY_MS / 2;

/**
 * Checks a schedule and returns its first firing strictly after `now`. `field` names the
 * configuration in error messages (`triggers[0].configuration`). Cron expressions go through the
 * bounded search of `CronCalendar`: an expression that fires rarely (`0 0 * 2 1#5`) costs at most
 * eight years of calendar days, never an unbounded walk.
 */
export function firstFiring(config: ScheduleConfig, now: Date, field: string): Date {
  if (!isIanaTimeZone(config.timezone)) {
    throw new InvalidRequestError(
      `${field}.timezone: "${config.timezone}" is not an IANA time zone (e.g. "Europe/Paris").`,
    );
  }
  if (config.type === 'interval') {
    checkInterval(config, field);
    return searchFrom(intervalCalendar(config, true), now, field);
  }
  const cron = config.cron.trim();
  if (cron.split(/\s+/).length !== 5) {
    throw new InvalidRequestError(
      `${field}.cron: must have 5 fields (minute hour day-of-month month day-of-week), e.g. "0 9 * * 1-5".`,
    );
  }
  let calendar: CronCalendar;
  try {
    calendar = new CronCalendar({ cron, timezone: config.timezone });
  } catch (error) {
    throw new InvalidRequestError(`${field}.cron: ${(error as Error).message}.`);
  }
  if (calendar.firesWithin(MIN_SPACING_MINUTES, now)) {
    throw new InvalidRequestError(
      `${field}.cron: firings must be at least ${MIN_SPACING_MINUTES} minutes apart.`,
    );
  }
  return searchFrom(calendar, now, field);
}

/**
 * The firing after the one due at `due`, strictly after `now`: firings missed while no process
 * ran are not made up, the schedule resumes at its next time. Null when none lies within the
 * search bound.
 */
export function nextFiring(config: ScheduleConfig, due: Date, now: Date): Date | null {
  const after = due.getTime() > now.getTime() ? due : now;
  if (config.type === 'cron') {
    return new CronCalendar({ cron: config.cron.trim(), timezone: config.timezone }).nextAfter(after).next;
  }
  // Stepping whole periods from the last due time keeps the days (and weekday) of the interval.
  const daily = intervalCalendar(config, false);
  const periodMs = config.intervalDays * DAY_MS;
  const periods = Math.max(1, Math.floor((now.getTime() - due.getTime()) / periodMs) + 1);
  for (let step = periods; step <= periods + 1; step += 1) {
    const next = daily.nextAfter(new Date(due.getTime() + step * periodMs - HALF_DAY_MS)).next;
    if (next && next.getTime() > now.getTime()) return next;
  }
  return null;
}

function checkInterval(config: IntervalScheduleConfig, field: string): void {
  const integerIn = (name: string, value: number, min: number, max: number) => {
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new InvalidRequestError(`${field}.${name}: an integer from ${min} to ${max}.`);
    }
  };
  integerIn('intervalDays', config.intervalDays, 1, INTERVAL_DAYS_MAX);
  integerIn('hour', config.hour, 0, 23);
  integerIn('minute', config.minute, 0, 59);
  if (config.dayOfWeek !== null) {
    integerIn('dayOfWeek', config.dayOfWeek, 0, 6);
    if (config.intervalDays % 7 !== 0) {
      throw new InvalidRequestError(
        `${field}.intervalDays: with a dayOfWeek, a whole number of weeks (7, 14, …); or set dayOfWeek to null.`,
      );
    }
  }
}

/** The interval's time of day as a cron calendar: on its weekday for the first firing, any day after. */
function intervalCalendar(config: IntervalScheduleConfig, onWeekday: boolean): CronCalendar {
  const weekday = onWeekday && config.dayOfWeek !== null ? String(config.dayOfWeek) : '*';
  return new CronCalendar({
    cron: `${config.minute} ${config.hour} * * ${weekday}`,
    timezone: config.timezone,
  });
}

function searchFrom(calendar: CronCalendar, now: Date, field: string): Date {
  const { next } = calendar.nextAfter(now);
  if (!next) {
    throw new InvalidRequestError(
      `${field}.cron: no firing within the next 8 years; check the day, month and weekday fields.`,
    );
  }
  return next;
}
