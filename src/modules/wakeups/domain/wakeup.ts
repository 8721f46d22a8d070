import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { isIanaTimeZone } from 'src/platform/text/time-zones';
import { CronCalendar, CronSchedule, CronSearch } from 'src/platform/text/cron-calendar';
import type { WakeUpStatus } from 'src/kernel/wake-up-status';

export type { WakeUpStatus } from 'src/kernel/wake-up-status';

export type WakeUpSchedule =
  { type: 'one_shot'; fireAt: Date } | { type: 'cron'; cron: string; timezone: string };

export interface WakeUp {
  id: number;
  sId: string;
  workspaceId: number;
  conversationId: number;
  ownerId: number;
  agentSId: string;
  schedule: WakeUpSchedule;
  reason: string;
  status: WakeUpStatus;
  fireCount: number;
  maxFires: number;
  /** When it fires next; null once terminal. */
  nextFireAt: Date | null;
  /** Failed attempts at the current due time (retried with backoff). */
  attempts: number;
  createdAt: Date;
}

export const ONE_SHOT_MAX_AHEAD_MS = 31 * 24 * 3600 * 1000;
export const CRON_MIN_INTERVAL_MINUTES = 5;
export const CRON_MAX_FIRES = 32;
export const REASON_MAX = 1_000;
export const MAX_ATTEMPTS = 5;

export function isTerminal(status: WakeUpStatus): boolean {
  return status !== 'scheduled';
}

/** The next firing of a cron schedule strictly after `after`, in its timezone; null past the search bound. */
export function nextCronTime(schedule: CronSchedule, after: Date): Date | null {
  return new CronCalendar(schedule).nextAfter(after).next;
}

/**
 * Checks a cron schedule's expression and spacing, and finds its first firing after `now`; the
 * search is bounded (see `searchNextFiring`), and a schedule with no firing within it is refused.
 */
export function checkCronSchedule(schedule: CronSchedule, now: Date): CronSearch & { next: Date } {
  let calendar: CronCalendar;
  try {
    calendar = new CronCalendar(schedule);
  } catch (error) {
    throw new InvalidRequestError(`scheduleConfig.cron: ${(error as Error).message}.`);
  }
  if (calendar.firesWithin(CRON_MIN_INTERVAL_MINUTES, now)) {
    throw new InvalidRequestError(
      `scheduleConfig.cron: firings must be at least ${CRON_MIN_INTERVAL_MINUTES} minutes apart.`,
    );
  }
  const search = calendar.nextAfter(now);
  if (!search.next) {
    throw new InvalidRequestError(
      'scheduleConfig.cron: no firing within the next 8 years; check the day, month and weekday fields.',
    );
  }
  return { ...search, next: search.next };
}

export interface ScheduleInput {
  type: string;
  fireAt?: number;
  cron?: string;
  timezone?: string;
}

/** Validates a schedule and returns it with its first firing time and maximum number of firings. */
export function planSchedule(
  input: ScheduleInput,
  requestedMaxFires: number | undefined,
  now: Date,
): { schedule: WakeUpSchedule; firstFireAt: Date; maxFires: number } {
  if (input.type === 'one_shot') {
    if (input.cron !== undefined || input.timezone !== undefined) {
      throw new InvalidRequestError('scheduleConfig: a one_shot schedule takes only fireAt.');
    }
    if (input.fireAt === undefined)
      throw new InvalidRequestError('scheduleConfig.fireAt: required for one_shot.');
    // Compared as numbers before any Date is made: past ±8.64e15 a Date is invalid (NaN passes
    // every comparison), and past 2^53 the number is no longer the integer the client sent.
    if (!Number.isSafeInteger(input.fireAt))
      throw new InvalidRequestError(
        'scheduleConfig.fireAt: must be an integer number of ms since the epoch.',
      );
    if (input.fireAt <= now.getTime())
      throw new InvalidRequestError('scheduleConfig.fireAt: must be in the future.');
    if (input.fireAt - now.getTime() > ONE_SHOT_MAX_AHEAD_MS) {
      throw new InvalidRequestError('scheduleConfig.fireAt: at most 31 days ahead.');
    }
    const fireAt = new Date(input.fireAt);
    if (requestedMaxFires !== undefined && requestedMaxFires !== 1) {
      throw new InvalidRequestError('maxFires: a one_shot wake-up fires once (maxFires 1).');
    }
    return { schedule: { type: 'one_shot', fireAt }, firstFireAt: fireAt, maxFires: 1 };
  }
  if (input.type === 'cron') {
    if (input.fireAt !== undefined)
      throw new InvalidRequestError('scheduleConfig: a cron schedule takes cron and timezone, not fireAt.');
    if (input.cron === undefined)
      throw new InvalidRequestError('scheduleConfig.cron: required for cron (5 fields, e.g. "0 9 * * 1-5").');
    if (input.timezone === undefined) {
      throw new InvalidRequestError(
        'scheduleConfig.timezone: required for cron (an IANA timezone, e.g. "Europe/Paris").',
      );
    }
    const cron = input.cron.trim();
    const timezone = input.timezone;
    if (cron.split(/\s+/).length !== 5) {
      throw new InvalidRequestError(
        'scheduleConfig.cron: must have 5 fields (minute hour day-of-month month day-of-week).',
      );
    }
    if (!isIanaTimeZone(timezone)) {
      throw new InvalidRequestError(`scheduleConfig.timezone: "${timezone}" is not an IANA timezone.`);
    }
    const { next: firstFireAt } = checkCronSchedule({ cron, timezone }, now);
    const maxFires = requestedMaxFires ?? CRON_MAX_FIRES;
    if (maxFires < 1 || maxFires > CRON_MAX_FIRES) {
      throw new InvalidRequestError(`maxFires: between 1 and ${CRON_MAX_FIRES} for a cron wake-up.`);
    }
    return { schedule: { type: 'cron', cron, timezone }, firstFireAt, maxFires };
  }
  throw new InvalidRequestError('scheduleConfig.type: must be one_shot or cron.');
}

/** The state after a successful firing at `now`. */
export function afterFiring(
  wakeUp: WakeUp,
  now: Date,
): Pick<WakeUp, 'status' | 'fireCount' | 'nextFireAt' | 'attempts'> {
  const fireCount = wakeUp.fireCount + 1;
  if (wakeUp.schedule.type === 'one_shot')
    return { status: 'fired', fireCount, nextFireAt: null, attempts: 0 };
  const nextFireAt = fireCount < wakeUp.maxFires ? nextCronTime(wakeUp.schedule, now) : null;
  if (!nextFireAt) return { status: 'expired', fireCount, nextFireAt: null, attempts: 0 };
  return { status: 'scheduled', fireCount, nextFireAt, attempts: 0 };
}

/** The state after a failed attempt: retry with exponential backoff, then give up. */
export function afterFailure(wakeUp: WakeUp, now: Date): Pick<WakeUp, 'status' | 'nextFireAt' | 'attempts'> {
  const attempts = wakeUp.attempts + 1;
  if (attempts >= MAX_ATTEMPTS) return { status: 'expired', nextFireAt: null, attempts };
  return { status: 'scheduled', nextFireAt: new Date(now.getTime() + 1000 * 2 ** attempts), attempts };
}
