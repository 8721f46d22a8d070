import { describe, expect, it } from '@jest/globals';
import { CronExpressionParser } from 'cron-parser';
import fc from 'fast-check';
import { CRON_SEARCH_DAYS, CronCalendar, CronSchedule } from 'src/platform/text/cron-calendar';
import { checkCronSchedule } from 'src/modules/wakeups/domain/wakeup';

const now = new Date('2026-11-23T07:00:00Z');
const searchNextFiring = (schedule: CronSchedule, after: Date) => new CronCalendar(schedule).nextAfter(after);
const TIMEZONES = [
  'UTC',
  'America/New_York',
  'Europe/Paris',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Etc/GMT+12',
];

describe("the bounded search for a cron schedule's next firing", () => {
  // Before the search was bounded, 50 firings of each of these took cron-parser's walk through
  // every February for decades: from a tenth of a second to several seconds of event loop.
  it.each([
    ['0 0 * 2 1#5', 'a fifth Monday in February: 2044'],
    ['0 0 * 2 6#5', 'a fifth Saturday in February: 2048'],
    ['0 0 30 2 1#5', 'the 30th of February, or a fifth Monday in it'],
    ['0 0 31 2 1#5', 'the 31st of February, or a fifth Monday in it'],
  ])('refuses %s (%s), having examined the bounded number of days and no time', (cron) => {
    for (const timezone of TIMEZONES) {
      const search = searchNextFiring({ cron, timezone }, now);
      expect(search).toEqual({ next: null, daysExamined: CRON_SEARCH_DAYS, timesExamined: 0 });
      expect(() => checkCronSchedule({ cron, timezone }, now)).toThrow(
        /^scheduleConfig\.cron: no firing within the next 8 years/,
      );
    }
  });

  it.each(['0 0 31 2 *', '0 0 30 2 *', '0 0 30,31 2 *', '0 0 31 4,6,9,11 *'])(
    'refuses %s, a day that never comes, as cron-parser parses it',
    (cron) => {
      expect(() => checkCronSchedule({ cron, timezone: 'UTC' }, now)).toThrow(
        /^scheduleConfig\.cron: Invalid explicit day of month definition/,
      );
    },
  );

  it.each([
    ['0 0 29 2 *', 'UTC', '2028-02-29T00:00:00.000Z'],
    ['0 0 29 2 *', 'America/New_York', '2028-02-29T05:00:00.000Z'],
    ['0 0 * 2 0#5', 'UTC', '2032-02-29T00:00:00.000Z'],
    ['0 0 L 2 *', 'Europe/Paris', '2027-02-27T23:00:00.000Z'],
    ['30 9 * * 1-5', 'America/New_York', '2026-11-23T14:30:00.000Z'],
    ['0 12 * * 5L', 'Asia/Kathmandu', '2026-11-27T06:15:00.000Z'],
    ['0 0 * * *', 'Pacific/Kiritimati', '2026-11-23T10:00:00.000Z'],
    ['0 0 * * *', 'Etc/GMT+12', '2026-11-23T12:00:00.000Z'],
  ])('finds the first firing of %s in %s: %s, converting a time or two', (cron, timezone, first) => {
    const search = checkCronSchedule({ cron, timezone }, now);
    expect(search.next.toISOString()).toBe(first);
    // Two when today's only time has passed where it is already evening (Kiritimati, UTC−12).
    expect(search.timesExamined).toBeLessThanOrEqual(2);
    const days = (search.next.getTime() - now.getTime()) / 86_400_000;
    expect(search.daysExamined).toBeGreaterThanOrEqual(Math.floor(days));
    expect(search.daysExamined).toBeLessThanOrEqual(Math.ceil(days) + 1);
  });

  it("moves to the next day when all of today's firings have passed", () => {
    const search = searchNextFiring({ cron: '0 6,7 * * *', timezone: 'UTC' }, now);
    expect(search).toEqual({ next: new Date('2026-11-24T06:00:00Z'), daysExamined: 2, timesExamined: 3 });
  });

  /** Consecutive firings from `from`, each searched for after the one before. */
  const firings = (cron: string, timezone: string, from: string, count: number): string[] => {
    const found: string[] = [];
    let after = new Date(from);
    for (let i = 0; i < count; i += 1) {
      after = searchNextFiring({ cron, timezone }, after).next!;
      found.push(after.toISOString().slice(0, 16));
    }
    return found;
  };

  it.each([
    // 02:00 EST jumps to 03:00 EDT: 02:00 and 02:30 fire with 03:00 and 03:30 (once each).
    [
      '0,30 1-3 * * *',
      'America/New_York',
      '2027-03-14T05:00Z',
      ['06:00', '06:30', '07:00', '07:30', '15T05:00'],
    ],
    ['30 2 * * *', 'America/New_York', '2027-03-13T12:00Z', ['14T07:30', '15T06:30']],
    // 02:00 EDT falls back to 01:00 EST: the repeated hour fires once, the first time.
    [
      '0,30 1-3 * * *',
      'America/New_York',
      '2027-11-07T04:00Z',
      ['05:00', '05:30', '07:00', '07:30', '08:00'],
    ],
    ['0,30 1-3 * * *', 'Europe/Paris', '2027-03-28T00:00Z', ['00:30', '01:00', '01:30', '23:00']],
    // Midnight does not exist on 5 September 2027 in Santiago: it fires at 01:00 (−03).
    ['0 0 * * *', 'America/Santiago', '2027-09-04T02:00Z', ['04T04:00', '05T04:00', '06T03:00']],
    // Lord Howe Island falls back half an hour, from 02:00 (+11) to 01:30 (+10:30).
    ['0 * * * *', 'Australia/Lord_Howe', '2027-04-03T12:30Z', ['13:00', '14:00', '15:30', '16:30']],
    ['0 1-3 * * *', 'Australia/Lord_Howe', '2027-04-03T08:00Z', ['14:00', '15:30', '16:30', '04T14:30']],
  ])('fires %s in %s from %s across a daylight-saving change', (cron, timezone, from, expected) => {
    const prefix = from.slice(0, 8);
    const full = expected.map((time) =>
      time.length === 5 ? `${from.slice(0, 10)}T${time}` : `${prefix}${time}`,
    );
    expect(firings(cron, timezone, from, full.length)).toEqual(full);
  });

  const field = (choices: string[]) => fc.constantFrom(...choices);
  const expression = fc
    .tuple(
      field(['0', '30', '*/15', '5,55']),
      field(['*', '0', '2', '23', '1-3', '*/6']),
      field(['*', '?', '1', '15', 'L', '29', '30', '31', '1-7', 'L,15', '28-31']),
      field(['*', '1', '2', '3,9', '2-4', '*/3', '12']),
      field(['*', '?', '0', '1', '7', '1-5', '0-7', '1#1', '5#3', '1#5', '5L', '1,5L', '6L']),
    )
    .map((fields) => fields.join(' '));
  const instant = fc
    .integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2032, 11, 31) })
    .map((ms) => new Date(ms - (ms % 1000)));
  // Zones without daylight saving, where cron-parser's walk and its rules for changes play no part.
  const steadyZones = ['UTC', 'Asia/Kathmandu', 'Asia/Tokyo', 'Pacific/Kiritimati', 'Etc/GMT+12'];

  it("agrees with cron-parser's unbounded walk on the days and times it fires", () => {
    fc.assert(
      fc.property(expression, fc.constantFrom(...steadyZones), instant, (cron, timezone, from) => {
        let walk;
        try {
          walk = CronExpressionParser.parse(cron, { tz: timezone, currentDate: from });
        } catch {
          expect(() => searchNextFiring({ cron, timezone }, from)).toThrow();
          return;
        }
        let after = from;
        for (let i = 0; i < 5; i += 1) {
          const expected = walk.next().toDate();
          const search = searchNextFiring({ cron, timezone }, after);
          expect(search.daysExamined).toBeLessThanOrEqual(CRON_SEARCH_DAYS);
          if (expected.getTime() - after.getTime() >= (CRON_SEARCH_DAYS - 1) * 86_400_000) {
            expect(search.next).toBeNull();
            return;
          }
          expect({ cron, timezone, after, next: search.next }).toEqual({
            cron,
            timezone,
            after,
            next: expected,
          });
          after = expected;
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("cron-parser's hashed values", () => {
  // `H` is drawn at random at every parse: five readings of one expression gave five next times.
  it.each([
    'H * * * *',
    'H H * * *',
    '0 H * * *',
    'H/10 * * * *',
    '0 H(8-10) * * *',
    '0 9 H * *',
    '0 9 * H *',
    '0 9 * * H',
    '0 9 * * MON,H',
  ])('refuses %s, naming H, for wake-ups and triggers alike', (cron) => {
    expect(() => checkCronSchedule({ cron, timezone: 'UTC' }, now)).toThrow(
      /^scheduleConfig\.cron: H \(a hashed value\) is not accepted/,
    );
    expect(() => new CronCalendar({ cron, timezone: 'UTC' })).toThrow(/^H \(a hashed value\)/);
  });

  it.each([
    ['0 9 * * THU', '2026-11-26T09:00:00.000Z'],
    ['0 9 * * thu-fri', '2026-11-26T09:00:00.000Z'],
    ['0 9 * MAR-JUN *', '2027-03-01T09:00:00.000Z'],
  ])('still reads the h of a weekday or month name in %s', (cron, first) => {
    expect(checkCronSchedule({ cron, timezone: 'UTC' }, now).next.toISOString()).toBe(first);
  });
});

describe('the shortest interval between firings', () => {
  it.each([
    ['* * * * *', true],
    ['*/5 * * * *', false],
    ['0-4,10 9 * * *', true],
    ['0,58 0,23 * * *', true],
    ['0,58 0,23 L,1 * *', true],
    ['0,58 0,23 1 * *', false],
    ['0,58 0,23 * * 1', false],
    ['58 23 * * *', false],
    ['0 9 1 1 *', false],
  ])('of %s is under 5 minutes: %s', (cron, under) => {
    expect(new CronCalendar({ cron, timezone: 'Europe/Paris' }).firesWithin(5, now)).toBe(under);
  });

  // What fires is what `nextAfter` finds (the workers' search): an expression the check accepts,
  // with `L`, `#`, `?`, steps over ranges and lists, never fires twice within 5 minutes.
  it('holds on the firings of every expression it accepts', () => {
    const field = (choices: string[]) => fc.constantFrom(...choices);
    const expression = fc
      .tuple(
        field(['0', '*/4', '*/5', '0-10/5', '2,58', '57-59/2', '3/7', '58', '0,4', '1-59/29']),
        field(['*', '0', '23', '0,23', '*/6', '22-23', '1-23/11']),
        field(['*', '?', 'L', '1', 'L,1', '28-31', '1-31/2', '30,31', '15']),
        field(['*', '2', '*/3', '1,12', '2-3']),
        field(['*', '?', '0', '1-5', '5L', '1#1', '6#5', '0,6', '1-7/3', '6L,0']),
      )
      .map((fields) => fields.join(' '));
    const steadyZones = ['UTC', 'Asia/Kathmandu', 'Pacific/Kiritimati', 'Etc/GMT+12'];
    let accepted = 0;
    fc.assert(
      fc.property(expression, fc.constantFrom(...steadyZones), (cron, timezone) => {
        let calendar: CronCalendar;
        try {
          calendar = new CronCalendar({ cron, timezone });
        } catch {
          return;
        }
        if (calendar.firesWithin(5, now)) return;
        accepted += 1;
        let previous = calendar.nextAfter(now).next;
        for (let i = 0; i < 40 && previous; i += 1) {
          const next = calendar.nextAfter(previous).next;
          if (!next) return;
          const gapMinutes = (next.getTime() - previous.getTime()) / 60_000;
          expect({ cron, timezone, previous, atLeastFive: gapMinutes >= 5 }).toEqual({
            cron,
            timezone,
            previous,
            atLeastFive: true,
          });
          previous = next;
        }
      }),
      { numRuns: 400 },
    );
    // The generator is not so strict that the check refuses everything it draws.
    expect(accepted).toBeGreaterThan(50);
  });
});
