import { it } from '@jest/globals';
import type { NewWakeUp } from 'src/modules/wakeups/application/ports/wakeup.repository';
import { generateSId } from 'src/platform/ids/sid';
import { type Stores, describeContract, newConversation } from 'test/contract/stores';
import { expect } from 'test/support/expect';

/**
 * A conversation of a new workspace and a builder of its wake-ups. The scheduler's reads span
 * workspaces, so the cases that make them pick due times of their own (years no other case uses).
 */
async function conversationOf(stores: Stores) {
  const workspaceId = await stores.workspace();
  const ownerId = await stores.user(workspaceId);
  const anotherConversation = () => newConversation(stores, workspaceId);
  const conversation = await anotherConversation();
  const wakeUp = (at: string, changes: Partial<NewWakeUp> = {}): NewWakeUp => ({
    sId: generateSId(),
    workspaceId,
    conversationId: conversation.id,
    ownerId,
    agentSId: 'helper',
    schedule: { type: 'one_shot', fireAt: new Date(at) },
    reason: 'Check the build',
    status: 'scheduled',
    fireCount: 0,
    maxFires: 1,
    nextFireAt: new Date(at),
    attempts: 0,
    ...changes,
  });
  return { workspaceId, ownerId, conversation, anotherConversation, wakeUp };
}

describeContract('WakeUpRepository', (stores) => {
  it('holds one scheduled wake-up per conversation, and any number of ended ones', async () => {
    const { wakeUps } = stores();
    const { wakeUp } = await conversationOf(stores());
    const first = await wakeUps.create(wakeUp('2030-01-01T00:00:00Z'));
    expect(first).toMatchObject({ status: 'scheduled', reason: 'Check the build' });
    expect(first?.createdAt).toBeInstanceOf(Date);
    expect(await wakeUps.create(wakeUp('2030-01-02T00:00:00Z'))).toBeNull();
    await expect(
      wakeUps.create(wakeUp('2030-01-02T00:00:00Z', { status: 'fired', nextFireAt: null })),
    ).resolves.toMatchObject({ status: 'fired' });
  });

  it('finds and lists in its workspace and conversation only, in creation order', async () => {
    const { wakeUps, workspace } = stores();
    const { workspaceId, conversation, wakeUp } = await conversationOf(stores());
    const ended = await wakeUps.create(wakeUp('2030-01-01T00:00:00Z', { status: 'fired', nextFireAt: null }));
    const scheduled = await wakeUps.create(
      wakeUp('2030-01-01T00:00:00Z', {
        schedule: { type: 'cron', cron: '0 9 * * 1', timezone: 'Europe/Paris' },
      }),
    );
    expect(await wakeUps.find(workspaceId, conversation.id, scheduled!.sId)).toEqual(scheduled);
    expect(await wakeUps.find(await workspace(), conversation.id, scheduled!.sId)).toBeNull();
    expect(await wakeUps.find(workspaceId, conversation.id, generateSId())).toBeNull();
    expect(await wakeUps.listInConversation(workspaceId, conversation.id)).toEqual([ended, scheduled]);
    expect(await wakeUps.listInConversation(await workspace(), conversation.id)).toEqual([]);
  });

  it('cancels a scheduled wake-up once, answering the row as it ends up', async () => {
    const { wakeUps } = stores();
    const { workspaceId, conversation, wakeUp } = await conversationOf(stores());
    const created = (await wakeUps.create(wakeUp('2030-01-01T00:00:00Z')))!;
    const cancelled = await wakeUps.cancel(workspaceId, created.id);
    expect(cancelled).toEqual({
      changed: true,
      wakeUp: { ...created, status: 'cancelled', nextFireAt: null },
    });
    expect((await wakeUps.cancel(workspaceId, created.id)).changed).toBe(false);
    expect(await wakeUps.ownerOfScheduled(workspaceId, conversation.id)).toBeNull();
  });

  it("cancels an owner's scheduled wake-ups with their conversations' sIds, and a conversation's", async () => {
    const { wakeUps } = stores();
    const { workspaceId, ownerId, conversation, anotherConversation, wakeUp } =
      await conversationOf(stores());
    const other = await anotherConversation();
    const first = (await wakeUps.create(wakeUp('2030-01-01T00:00:00Z')))!;
    const second = (await wakeUps.create(wakeUp('2030-01-01T00:00:00Z', { conversationId: other.id })))!;
    expect(await wakeUps.ownerOfScheduled(workspaceId, conversation.id)).toBe(ownerId);

    const cancelled = await wakeUps.cancelScheduledOf(workspaceId, ownerId);
    expect(
      cancelled.map(({ wakeUp, conversationSId }) => [wakeUp.id, wakeUp.status, conversationSId]),
    ).toEqual([
      [first.id, 'cancelled', conversation.sId],
      [second.id, 'cancelled', other.sId],
    ]);
    expect(await wakeUps.cancelScheduledOf(workspaceId, ownerId)).toEqual([]);

    const again = (await wakeUps.create(wakeUp('2030-01-01T00:00:00Z')))!;
    await wakeUps.cancelScheduledIn(workspaceId, conversation.id);
    expect(await wakeUps.find(workspaceId, conversation.id, again.sId)).toMatchObject({
      status: 'cancelled',
      nextFireAt: null,
    });
  });

  it('claims due wake-ups earliest first, across workspaces, up to the limit', async () => {
    const { wakeUps, unitOfWork } = stores();
    const one = await conversationOf(stores());
    const two = await conversationOf(stores());
    const later = (await wakeUps.create(one.wakeUp('2002-03-01T00:00:00Z')))!;
    const earlier = (await wakeUps.create(two.wakeUp('2002-02-01T00:00:00Z')))!;
    const notYet = (await wakeUps.create(
      one.wakeUp('2002-04-01T00:00:00Z', { conversationId: (await one.anotherConversation()).id }),
    ))!;

    const claimed = await unitOfWork.run(() => wakeUps.claimDue(new Date('2002-03-15T00:00:00Z'), 10));
    expect(claimed.map((w) => w.id)).toEqual([earlier.id, later.id]);
    const limited = await unitOfWork.run(() => wakeUps.claimDue(new Date('2002-03-15T00:00:00Z'), 1));
    expect(limited.map((w) => w.id)).toEqual([earlier.id]);

    const now = new Date('2002-03-15T00:00:00Z');
    expect(await unitOfWork.run(() => wakeUps.claimIfDue(one.workspaceId, later.id, now))).toMatchObject({
      id: later.id,
    });
    expect(await unitOfWork.run(() => wakeUps.claimIfDue(two.workspaceId, later.id, now))).toBeNull();
    expect(
      await unitOfWork.run(() =>
        wakeUps.claimIfDue(one.workspaceId, later.id, new Date('2002-02-15T00:00:00Z')),
      ),
    ).toBeNull();
    for (const due of [later, earlier, notYet]) await wakeUps.cancel(due.workspaceId, due.id);
  });

  it('applies changes one by one or several at once, answering them in the order given', async () => {
    const { wakeUps, unitOfWork } = stores();
    const { workspaceId, conversation, anotherConversation, wakeUp } = await conversationOf(stores());
    const first = (await wakeUps.create(wakeUp('2003-01-01T00:00:00Z')))!;
    const second = (await wakeUps.create(
      wakeUp('2003-01-01T00:00:00Z', { conversationId: (await anotherConversation()).id }),
    ))!;
    const retried = await wakeUps.update(first, {
      attempts: 1,
      nextFireAt: new Date('2003-01-02T00:00:00Z'),
    });
    expect(retried).toMatchObject({ id: first.id, attempts: 1 });
    expect(await wakeUps.find(workspaceId, conversation.id, first.sId)).toEqual(retried);

    const updated = await wakeUps.updateMany([
      { wakeUp: second, changes: { status: 'fired', fireCount: 1, nextFireAt: null } },
      { wakeUp: retried, changes: { status: 'expired', nextFireAt: null } },
    ]);
    expect(updated.map((w) => [w.id, w.status])).toEqual([
      [second.id, 'fired'],
      [first.id, 'expired'],
    ]);
    expect(await wakeUps.find(workspaceId, conversation.id, first.sId)).toMatchObject({
      status: 'expired',
      attempts: 1,
      nextFireAt: null,
    });
    const due = await unitOfWork.run(() => wakeUps.claimDue(new Date('2003-12-31T00:00:00Z'), 10));
    expect(due.filter((w) => w.workspaceId === workspaceId)).toEqual([]);
  });

  it('answers the earliest due time of the scheduled wake-ups', async () => {
    const { wakeUps } = stores();
    const { workspaceId, wakeUp } = await conversationOf(stores());
    const earliest = (await wakeUps.create(wakeUp('1990-01-01T00:00:00Z')))!;
    expect(await wakeUps.nextDueAt()).toEqual(new Date('1990-01-01T00:00:00Z'));
    await wakeUps.cancel(workspaceId, earliest.id);
    expect(await wakeUps.nextDueAt()).not.toEqual(new Date('1990-01-01T00:00:00Z'));
  });
});
