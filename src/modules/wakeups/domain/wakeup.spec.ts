import { describe, expect, it } from '@jest/globals';
import {
  WakeUp,
  afterFailure,
  afterFiring,
  nextCronTime,
  planSchedule,
} from 'src/modules/wakeups/domain/wakeup';

const now = new Date('2026-11-23T07:00:00Z');

const wakeUp = (overrides: Partial<WakeUp>): WakeUp => ({
  id: 1,
  sId: 'wku_1',
  workspaceId: 1,
  conversationId: 1,
  ownerId: 1,
  agentSId: 'agent00001',
  schedule: { type: 'cron', cron: '0 9 * * *', timezone: 'Europe/Paris' },
  reason: 'check',
  status: 'scheduled',
  fireCount: 0,
  maxFires: 3,
  nextFireAt: now,
  attempts: 0,
  createdAt: now,
  ...overrides,
});

describe('wake-up schedules', () => {
  it('plans a one-shot within 31 days', () => {
    const plan = planSchedule({ type: 'one_shot', fireAt: now.getTime() + 60_000 }, undefined, now);
    expect(plan).toEqual({
      schedule: { type: 'one_shot', fireAt: new Date(now.getTime() + 60_000) },
      firstFireAt: new Date(now.getTime() + 60_000),
      maxFires: 1,
    });
  });

  const refused: [Parameters<typeof planSchedule>[0], number | undefined, RegExp][] = [
    [{ type: 'one_shot', fireAt: now.getTime() - 1 }, undefined, /fireAt: must be in the future/],
    [{ type: 'one_shot', fireAt: now.getTime() + 32 * 24 * 3600 * 1000 }, undefined, /at most 31 days/],
    [{ type: 'one_shot' }, undefined, /fireAt: required/],
    [{ type: 'one_shot', fireAt: 1e308 }, undefined, /fireAt: must be an integer/],
    [{ type: 'one_shot', fireAt: 8640000000000001 }, undefined, /fireAt: /],
    [{ type: 'one_shot', fireAt: 1e20 }, undefined, /fireAt: must be an integer/],
    [{ type: 'one_shot', fireAt: now.getTime() + 0.5 }, undefined, /fireAt: must be an integer/],
    [{ type: 'cron', cron: '0 9 * * *' }, undefined, /timezone: required for cron/],
    [{ type: 'cron', timezone: 'UTC' }, undefined, /cron: required for cron/],
    [{ type: 'one_shot', fireAt: now.getTime() + 1000 }, 2, /maxFires/],
    [{ type: 'cron', cron: '* * * * *', timezone: 'UTC' }, undefined, /at least 5 minutes apart/],
    [{ type: 'cron', cron: '*/5 * * * * *', timezone: 'UTC' }, undefined, /5 fields/],
    [{ type: 'cron', cron: '0 9 * * *', timezone: 'Mars/Olympus' }, undefined, /not an IANA timezone/],
    [{ type: 'cron', cron: '0 99 * * *', timezone: 'UTC' }, undefined, /scheduleConfig.cron/],
    [{ type: 'cron', cron: '0 0 * 2 1#5', timezone: 'UTC' }, undefined, /no firing within the next 8 years/],
    [{ type: 'cron', cron: '0 0 31 2 *', timezone: 'UTC' }, undefined, /scheduleConfig.cron: Invalid/],
    [{ type: 'cron', cron: '0 9 * * *', timezone: 'UTC' }, 33, /maxFires/],
    [{ type: 'weekly' }, undefined, /type: must be one_shot or cron/],
  ];
  for (const [input, maxFires, message] of refused) {
    it(`refuses ${JSON.stringify(input)} (maxFires ${maxFires})`, () => {
      expect(() => planSchedule(input, maxFires, now)).toThrow(message);
    });
  }

  it('follows a cron expression in its timezone', () => {
    const plan = planSchedule(
      { type: 'cron', cron: '30 9 * * 1-5', timezone: 'America/New_York' },
      undefined,
      now,
    );
    expect(plan.firstFireAt.toISOString()).toBe('2026-11-23T14:30:00.000Z');
    expect(plan.maxFires).toBe(32);
    expect(
      nextCronTime({ cron: '30 9 * * 1-5', timezone: 'America/New_York' }, plan.firstFireAt)?.toISOString(),
    ).toBe('2026-11-24T14:30:00.000Z');
  });

  it('accepts five-minute intervals', () => {
    expect(planSchedule({ type: 'cron', cron: '*/5 * * * *', timezone: 'UTC' }, 4, now).maxFires).toBe(4);
  });

  it('moves to the next time after a firing, and expires at maxFires', () => {
    expect(afterFiring(wakeUp({ fireCount: 0 }), now)).toEqual({
      status: 'scheduled',
      fireCount: 1,
      nextFireAt: new Date('2026-11-23T08:00:00.000Z'),
      attempts: 0,
    });
    expect(afterFiring(wakeUp({ fireCount: 2 }), now)).toMatchObject({
      status: 'expired',
      fireCount: 3,
      nextFireAt: null,
    });
    expect(
      afterFiring(wakeUp({ schedule: { type: 'one_shot', fireAt: now }, maxFires: 1 }), now),
    ).toMatchObject({
      status: 'fired',
      fireCount: 1,
    });
  });

  it('expires after a firing when the next one is beyond the search bound', () => {
    // A fifth Sunday in February: 29 February 2032, then 2060.
    const schedule = { type: 'cron' as const, cron: '0 0 * 2 0#5', timezone: 'UTC' };
    const firedAt = new Date('2032-02-29T00:00:01Z');
    expect(afterFiring(wakeUp({ schedule, fireCount: 0, maxFires: 32 }), firedAt)).toEqual({
      status: 'expired',
      fireCount: 1,
      nextFireAt: null,
      attempts: 0,
    });
  });

  it('retries failures with backoff, then expires', () => {
    expect(afterFailure(wakeUp({ attempts: 0 }), now)).toEqual({
      status: 'scheduled',
      nextFireAt: new Date(now.getTime() + 2000),
      attempts: 1,
    });
    expect(afterFailure(wakeUp({ attempts: 4 }), now)).toEqual({
      status: 'expired',
      nextFireAt: null,
      attempts: 5,
    });
  });
});
