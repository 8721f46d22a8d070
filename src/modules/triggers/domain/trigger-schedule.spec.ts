import { describe, expect, it } from '@jest/globals';
import { firstFiring, nextFiring } from 'src/modules/triggers/domain/trigger-schedule';
import type { IntervalScheduleConfig } from 'src/modules/triggers/domain/trigger';

const at = (iso: string) => new Date(iso);
const field = 'triggers[0].configuration';

describe('trigger schedules', () => {
  const fortnightly: IntervalScheduleConfig = {
    type: 'interval',
    intervalDays: 14,
    dayOfWeek: 1,
    hour: 10,
    minute: 30,
    timezone: 'UTC',
  };

  it('starts an interval on its weekday, then steps whole periods', () => {
    // Wednesday 2026-01-07: the first Monday after is the 12th.
    const first = firstFiring(fortnightly, at('2026-01-07T12:00:00Z'), field);
    expect(first.toISOString()).toBe('2026-01-12T10:30:00.000Z');
    expect(nextFiring(fortnightly, first, first)?.toISOString()).toBe('2026-01-26T10:30:00.000Z');
  });

  it('resumes at the next future time after an outage, on the days of the interval', () => {
    const due = at('2026-01-12T10:30:00Z');
    // Down for five weeks: the 26th and the 9th are gone, the next is the 23rd of February.
    expect(nextFiring(fortnightly, due, at('2026-02-16T00:00:00Z'))?.toISOString()).toBe(
      '2026-02-23T10:30:00.000Z',
    );
  });

  it('keeps the wall-clock time of a daily interval across the spring change in Paris', () => {
    const daily: IntervalScheduleConfig = {
      ...fortnightly,
      intervalDays: 1,
      dayOfWeek: null,
      hour: 9,
      minute: 0,
      timezone: 'Europe/Paris',
    };
    const before = at('2026-03-28T08:00:00Z'); // 09:00 CET
    expect(nextFiring(daily, before, before)?.toISOString()).toBe('2026-03-29T07:00:00.000Z'); // 09:00 CEST
  });

  it('moves a cron time that the spring change skips forward by the gap', () => {
    const config = { type: 'cron' as const, cron: '30 2 * * *', timezone: 'Europe/Paris' };
    const first = firstFiring(config, at('2026-03-28T12:00:00Z'), field);
    // 02:30 does not exist on 29 March 2026 in Paris: 03:30 CEST, 01:30 UTC.
    expect(first.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(nextFiring(config, first, first)?.toISOString()).toBe('2026-03-30T00:30:00.000Z');
  });

  it.each(['H * * * *', 'H H * * *', '0 9 * * H'])(
    'refuses %s, whose H cron-parser would draw again at every reading',
    (cron) => {
      expect(() =>
        firstFiring({ type: 'cron', cron, timezone: 'UTC' }, at('2026-01-01T00:00:00Z'), field),
      ).toThrow(/^triggers\[0\]\.configuration\.cron: H \(a hashed value\) is not accepted/);
    },
  );

  it('refuses a rare expression after a bounded search, quickly', () => {
    const started = performance.now();
    // The fifth Monday of February: next in 2044, beyond the eight years searched.
    expect(() =>
      firstFiring({ type: 'cron', cron: '0 0 * 2 1#5', timezone: 'UTC' }, at('2026-01-01T00:00:00Z'), field),
    ).toThrow(/no firing within the next 8 years/);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
