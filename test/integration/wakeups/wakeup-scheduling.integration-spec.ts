import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { WakeUpsService } from 'src/modules/wakeups/application/wakeups.service';
import { WakeUpWorker } from 'src/modules/wakeups/workers/wakeup.worker';
import { Clock } from 'src/platform/clock/clock';
import { FakeClock } from 'test/fakes/clock';
import { workspaceOf } from 'test/integration/members';
import { expect } from 'test/support/expect';
import { type TestModule, createTestModule } from 'test/support/test-app';

const MINUTE = 60_000;

describe('wake-ups, scheduled and fired on the real repositories with a controlled clock', () => {
  // A database of its own: the clock runs ahead of real time, past what other files schedule.
  const clock = new FakeClock(new Date('2027-03-01T09:00:00Z'));
  let module: TestModule;
  let wakeUps: WakeUpsService;
  let worker: WakeUpWorker;

  beforeAll(async () => {
    module = await createTestModule({
      overrides: [{ provide: Clock, useValue: clock }],
      env: { LOCAL_MODEL_CHUNK_DELAY_MS: 0 },
    });
    wakeUps = module.get(WakeUpsService);
    worker = module.get(WakeUpWorker);
  });
  afterAll(() => module.close());

  const scene = async () => {
    const fixture = await workspaceOf(module);
    const agent = await fixture.agent(fixture.admin);
    const { conversation } = await module
      .get(ConversationsService)
      .create(fixture.admin, { title: 'Stand-up' });
    const schedule = (
      scheduleConfig: { type: string; fireAt?: number; cron?: string; timezone?: string },
      maxFires?: number,
    ) =>
      wakeUps.create(fixture.admin, conversation.sId, {
        agentConfigurationId: agent.agent.sId,
        scheduleConfig,
        reason: 'Check the build',
        maxFires,
      });
    const userMessages = async () => {
      const { page } = await module
        .get(MessagesService)
        .listMessages(fixture.admin, conversation, { limit: 50, afterRank: -1 });
      return page.items.filter((item) => item.type === 'user_message');
    };
    return { ...fixture, conversation, schedule, userMessages };
  };

  it('fires a one-shot wake-up once it is due, posting its message, and never again', async () => {
    const { admin, conversation, schedule, userMessages } = await scene();
    const { wakeUp } = await schedule({ type: 'one_shot', fireAt: clock.now().getTime() + 10 * MINUTE });
    expect(wakeUp).toMatchObject({ status: 'scheduled', fireCount: 0 });

    clock.advance(10 * MINUTE - 1_000);
    await worker.runDue();
    expect(await userMessages()).toEqual([]);

    clock.advance(2_000);
    await worker.runDue();
    const [fired] = await wakeUps.list(admin, conversation.sId);
    expect(fired.wakeUp).toMatchObject({ status: 'fired', fireCount: 1, nextFireAt: null });
    expect(await userMessages()).toEqual([expect.objectContaining({ type: 'user_message' })]);

    clock.advance(60 * MINUTE);
    await worker.runDue();
    expect(await userMessages()).toHaveLength(1);
  });

  it('follows a cron schedule in its timezone and expires after its last firing', async () => {
    const { admin, conversation, schedule } = await scene();
    clock.set('2027-03-08T07:00:00Z');
    const { wakeUp } = await schedule({ type: 'cron', cron: '0 9 * * 1-5', timezone: 'Europe/Paris' }, 2);
    expect(wakeUp.nextFireAt?.toISOString()).toBe('2027-03-08T08:00:00.000Z');

    clock.set('2027-03-08T08:00:01Z');
    await worker.runDue();
    const [first] = await wakeUps.list(admin, conversation.sId);
    expect(first.wakeUp).toMatchObject({ status: 'scheduled', fireCount: 1 });
    expect(first.wakeUp.nextFireAt?.toISOString()).toBe('2027-03-09T08:00:00.000Z');

    clock.set('2027-03-09T08:00:05Z');
    await worker.runDue();
    const [last] = await wakeUps.list(admin, conversation.sId);
    expect(last.wakeUp).toMatchObject({ status: 'expired', fireCount: 2, nextFireAt: null });
  });

  it('fires nothing of a cancelled wake-up', async () => {
    const { admin, conversation, schedule, userMessages } = await scene();
    const { wakeUp } = await schedule({ type: 'one_shot', fireAt: clock.now().getTime() + MINUTE });
    await wakeUps.cancel(admin, conversation.sId, wakeUp.sId);
    clock.advance(2 * MINUTE);
    await worker.runDue();
    expect(await userMessages()).toEqual([]);
    expect((await wakeUps.list(admin, conversation.sId))[0].wakeUp.status).toBe('cancelled');
  });
});
