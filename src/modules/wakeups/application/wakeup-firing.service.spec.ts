import { describe, expect, it, jest } from '@jest/globals';
import { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import { BATCH_SIZE } from 'src/modules/wakeups/application/wakeup-firing.service';
import { MAX_ATTEMPTS } from 'src/modules/wakeups/domain/wakeup';
import { firingScene as setUp } from 'test/fakes/wakeup-scenes';

const MINUTE = 60_000;

describe('WakeUpFiringService', () => {
  it('fires a one-shot wake-up once it is due: a wake-up message mentioning the agent, on behalf of its owner', async () => {
    const {
      firing,
      clock,
      inMinutes,
      posted,
      wakeUp,
      statusEvents,
      owner,
      agent,
      directory,
      inProcessEvents,
    } = await setUp();
    const { wakeUp: created } = await inMinutes(10);

    clock.advance(10 * MINUTE - 1);
    expect(await firing.fireDueBatch()).toBe(0);
    expect(posted()).toEqual([]);

    clock.advance(1);
    expect(await firing.fireDueBatch()).toBe(1);

    const systemUser = await directory.workspaces.systemUser();
    expect(posted()).toEqual([
      expect.objectContaining({
        content: 'Check the build',
        mentions: [{ configurationId: agent.sId }],
        userId: systemUser.id,
        context: expect.objectContaining({ origin: 'wakeup' }),
      }),
    ]);
    expect(wakeUp(created.sId)).toMatchObject({
      status: 'fired',
      fireCount: 1,
      nextFireAt: null,
      attempts: 0,
    });
    expect(statusEvents()).toEqual(['scheduled', 'fired']);
    // The runtime hears of the message as posted by the owner, once the firing commits.
    const [announced] = inProcessEvents.committedOf(MessagePosted);
    expect(announced).toMatchObject({ caller: { userId: owner.userId }, newAgentMentions: [agent.sId] });
  });

  it('fires each due time exactly once, however often and by however many processes it is asked', async () => {
    const { firing, newFiringProcess, clock, inMinutes, posted } = await setUp();
    await inMinutes(5);
    clock.advance(5 * MINUTE);

    const claimed = await Promise.all([firing.fireDueBatch(), newFiringProcess().fireDueBatch()]);
    expect(await firing.fireDueBatch()).toBe(0);

    expect(claimed.sort()).toEqual([0, 1]);
    expect(posted()).toHaveLength(1);
  });

  it('leaves a wake-up another transaction holds, and fires it once released', async () => {
    const { firing, clock, inMinutes, posted, wakeUpRepository } = await setUp();
    const { wakeUp } = await inMinutes(5);
    clock.advance(5 * MINUTE);
    wakeUpRepository.heldElsewhere.add(wakeUp.id);

    expect(await firing.fireDueBatch()).toBe(0);
    expect(posted()).toEqual([]);

    wakeUpRepository.heldElsewhere.delete(wakeUp.id);
    expect(await firing.fireDueBatch()).toBe(1);
    expect(posted()).toHaveLength(1);
  });

  it('fires a cron wake-up at each of its times and expires it after maxFires', async () => {
    const { firing, clock, schedule, posted, wakeUp, statusEvents } = await setUp();
    const { wakeUp: created } = await schedule(
      { type: 'cron', cron: '0 * * * *', timezone: 'UTC' },
      { maxFires: 2 },
    );
    expect(created.nextFireAt).toEqual(new Date('2026-03-02T10:00:00.000Z'));

    clock.set('2026-03-02T10:00:00.000Z');
    expect(await firing.fireDueBatch()).toBe(1);
    expect(wakeUp(created.sId)).toMatchObject({
      status: 'scheduled',
      fireCount: 1,
      nextFireAt: new Date('2026-03-02T11:00:00.000Z'),
    });

    clock.set('2026-03-02T10:59:59.999Z');
    expect(await firing.fireDueBatch()).toBe(0);

    clock.set('2026-03-02T11:00:00.000Z');
    expect(await firing.fireDueBatch()).toBe(1);
    expect(wakeUp(created.sId)).toMatchObject({ status: 'expired', fireCount: 2, nextFireAt: null });

    clock.set('2026-03-02T12:00:00.000Z');
    expect(await firing.fireDueBatch()).toBe(0);
    expect(posted()).toHaveLength(2);
    expect(statusEvents()).toEqual(['scheduled', 'scheduled', 'expired']);
  });

  it('retries a failed firing with growing delays, writing nothing meanwhile, then fires', async () => {
    const { firing, clock, inMinutes, posted, wakeUp, log, conversationRepository } = await setUp();
    const { wakeUp: created } = await inMinutes(5);
    clock.advance(5 * MINUTE);
    const writes = jest.spyOn(conversationRepository, 'reserveRanks');
    writes
      .mockRejectedValueOnce(new Error('connection lost'))
      .mockRejectedValueOnce(new Error('connection lost'));

    expect(await firing.fireDueBatch()).toBe(1);
    expect(wakeUp(created.sId)).toMatchObject({ status: 'scheduled', attempts: 1, fireCount: 0 });
    expect(wakeUp(created.sId).nextFireAt).toEqual(new Date(clock.now().getTime() + 2_000));
    expect(posted()).toEqual([]);
    expect(log.messages('warn')).toEqual(['Wake-up firing failed; retrying later']);

    clock.advance(1_999);
    expect(await firing.fireDueBatch()).toBe(0);
    clock.advance(1);
    expect(await firing.fireDueBatch()).toBe(1);
    expect(wakeUp(created.sId)).toMatchObject({ status: 'scheduled', attempts: 2 });
    expect(wakeUp(created.sId).nextFireAt).toEqual(new Date(clock.now().getTime() + 4_000));

    clock.advance(4_000);
    expect(await firing.fireDueBatch()).toBe(1);
    expect(wakeUp(created.sId)).toMatchObject({ status: 'fired', fireCount: 1, attempts: 0 });
    expect(posted()).toHaveLength(1);
  });

  it('expires a wake-up whose firing keeps failing, and announces it', async () => {
    const { firing, clock, inMinutes, posted, wakeUp, statusEvents, conversationRepository } = await setUp();
    const { wakeUp: created } = await inMinutes(5);
    clock.advance(5 * MINUTE);
    jest.spyOn(conversationRepository, 'reserveRanks').mockRejectedValue(new Error('disk full'));

    const delays: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await firing.fireDueBatch()).toBe(1);
      const { nextFireAt } = wakeUp(created.sId);
      if (nextFireAt === null) break;
      delays.push(nextFireAt.getTime() - clock.now().getTime());
      clock.set(nextFireAt);
    }

    expect(delays).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(wakeUp(created.sId)).toMatchObject({
      status: 'expired',
      attempts: MAX_ATTEMPTS,
      nextFireAt: null,
    });
    expect(statusEvents()).toEqual(['scheduled', 'expired']);
    clock.advance(MINUTE);
    expect(await firing.fireDueBatch()).toBe(0);
    expect(posted()).toEqual([]);
  });

  it('fires due wake-ups together, earliest first, and retries only the one whose firing failed', async () => {
    const { firing, clock, inMinutes, newConversation, posted, wakeUp, log, conversationRepository } =
      await setUp();
    const conversations = [await newConversation(), await newConversation(), await newConversation()];
    const later = await inMinutes(3, { in: conversations[0] });
    const failing = await inMinutes(2, { in: conversations[1] });
    const earliest = await inMinutes(1, { in: conversations[2] });
    clock.advance(3 * MINUTE);
    const reserveRanks = conversationRepository.reserveRanks.bind(conversationRepository);
    const order: number[] = [];
    jest.spyOn(conversationRepository, 'reserveRanks').mockImplementation(async (slots) => {
      order.push(...slots.map((slot) => slot.id));
      if (slots.some((slot) => slot.id === conversations[1].id)) throw new Error('row too big');
      return reserveRanks(slots);
    });

    expect(await firing.fireDueBatch()).toBe(3);

    // The batch, earliest first, was undone; then each alone: only the failing one did not fire.
    expect(order.slice(0, 3)).toEqual([conversations[2].id, conversations[1].id, conversations[0].id]);
    expect(log.messages('warn')).toEqual([
      'Wake-up batch failed; firing its wake-ups one by one',
      'Wake-up firing failed; retrying later',
    ]);
    expect(wakeUp(earliest.wakeUp.sId)).toMatchObject({ status: 'fired' });
    expect(wakeUp(later.wakeUp.sId)).toMatchObject({ status: 'fired' });
    expect(wakeUp(failing.wakeUp.sId)).toMatchObject({ status: 'scheduled', attempts: 1 });
    expect(conversations.map((conversation) => posted(conversation.id).length)).toEqual([1, 0, 1]);
  });

  it('fires a wake-up whose conversation another transaction holds, on its own, once', async () => {
    const { firing, clock, inMinutes, newConversation, posted, wakeUp, conversationRepository } =
      await setUp();
    const busy = await newConversation();
    const free = await newConversation();
    const held = await inMinutes(1, { in: busy });
    const other = await inMinutes(1, { in: free });
    clock.advance(MINUTE);
    conversationRepository.heldElsewhere.add(busy.id);

    expect(await firing.fireDueBatch()).toBe(2);

    expect(wakeUp(held.wakeUp.sId)).toMatchObject({ status: 'fired' });
    expect(wakeUp(other.wakeUp.sId)).toMatchObject({ status: 'fired' });
    expect([posted(busy.id).length, posted(free.id).length]).toEqual([1, 1]);
  });

  it('claims at most a batch at a time', async () => {
    const { firing, clock, inMinutes, newConversation } = await setUp();
    for (let i = 0; i <= BATCH_SIZE; i++) await inMinutes(1, { in: await newConversation() });
    clock.advance(MINUTE);

    expect(await firing.fireDueBatch()).toBe(BATCH_SIZE);
    expect(await firing.fireDueBatch()).toBe(1);
    expect(await firing.fireDueBatch()).toBe(0);
  });

  it('tells the scheduler when the next wake-up falls due', async () => {
    const { firing, clock, inMinutes, newConversation } = await setUp();
    expect(await firing.nextDueAt()).toBeNull();
    await inMinutes(30);
    await inMinutes(10, { in: await newConversation() });

    expect(await firing.nextDueAt()).toEqual(new Date(clock.now().getTime() + 10 * MINUTE));
  });
});
