import { it } from '@jest/globals';
import type { ConversationEvent } from 'src/modules/conversations/application/views/conversation-event.view';
import { type Stores, describeContract, newConversation } from 'test/contract/stores';
import { expect } from 'test/support/expect';

async function conversationsOf(stores: Stores) {
  const workspaceId = await stores.workspace();
  const create = () => newConversation(stores, workspaceId);
  return { workspaceId, one: await create(), two: await create() };
}

const title = (text: string): ConversationEvent => ({ type: 'conversation_title', created: 1, title: text });
const tokens = (messageId: string, text: string): ConversationEvent => ({
  type: 'generation_tokens',
  created: 2,
  configurationId: 'helper',
  messageId,
  text,
  classification: 'tokens',
});

describeContract('ConversationEventLog', (stores) => {
  it("reads a conversation's events after a position, oldest first, at most the limit", async () => {
    const { events, unitOfWork } = stores();
    const { workspaceId, one, two } = await conversationsOf(stores());
    const ids = await unitOfWork.run(async () => [
      await events.append(workspaceId, one.id, title('a')),
      await events.append(workspaceId, two.id, title('elsewhere')),
      await events.append(workspaceId, one.id, title('b')),
      await events.append(workspaceId, one.id, title('c')),
    ]);
    expect(ids.every((id) => typeof id === 'bigint')).toBe(true);
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);

    const firstTwo = await events.readAfter(one.id, 0n, 2);
    expect(firstTwo).toEqual([
      { id: ids[0], conversationId: one.id, event: title('a') },
      { id: ids[2], conversationId: one.id, event: title('b') },
    ]);
    expect((await events.readAfter(one.id, ids[2], 10)).map((e) => e.event)).toEqual([title('c')]);
    expect(await events.lastId(one.id)).toBe(ids[3]);
    expect(await events.lastId(two.id)).toBe(ids[1]);
  });

  it('answers 0 as the last id of a conversation without events', async () => {
    const { events } = stores();
    const { one } = await conversationsOf(stores());
    expect(await events.lastId(one.id)).toBe(0n);
    expect(await events.readAfter(one.id, 0n, 10)).toEqual([]);
  });

  it('appends several in one go, each conversation in the order given', async () => {
    const { events, unitOfWork } = stores();
    const { workspaceId, one, two } = await conversationsOf(stores());
    const ids = await unitOfWork.run(() =>
      events.appendMany([
        { workspaceId, conversationId: one.id, event: title('a') },
        { workspaceId, conversationId: two.id, event: title('x') },
        { workspaceId, conversationId: one.id, event: title('b') },
      ]),
    );
    expect(ids).toHaveLength(3);
    expect(ids[0] < ids[2]).toBe(true);
    const read = await events.readAfterMany(
      [
        { conversationId: two.id, afterId: 0n },
        { conversationId: one.id, afterId: ids[0] },
      ],
      10,
    );
    expect(read.map((page) => page.map((e) => e.event))).toEqual([[title('x')], [title('b')]]);
  });

  it('filters by type and by the agent message the events are about', async () => {
    const { events, unitOfWork } = stores();
    const { workspaceId, one } = await conversationsOf(stores());
    await unitOfWork.run(async () => {
      await events.append(workspaceId, one.id, title('a'));
      await events.append(workspaceId, one.id, tokens('m1', 'Hel'));
      await events.append(workspaceId, one.id, tokens('m2', 'Other'));
      await events.append(workspaceId, one.id, tokens('m1', 'lo'));
    });
    const ofM1 = await events.readAfter(one.id, 0n, 10, { types: ['generation_tokens'], messageId: 'm1' });
    expect(ofM1.map((e) => e.event)).toEqual([tokens('m1', 'Hel'), tokens('m1', 'lo')]);
    const titles = await events.readAfter(one.id, 0n, 10, { types: ['conversation_title'] });
    expect(titles.map((e) => e.event)).toEqual([title('a')]);
  });

  it('drops the events of a transaction that rolls back', async () => {
    const { events, unitOfWork } = stores();
    const { workspaceId, one } = await conversationsOf(stores());
    await expect(
      unitOfWork.run(async () => {
        await events.append(workspaceId, one.id, title('lost'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await events.readAfter(one.id, 0n, 10)).toEqual([]);
  });

  it('answers the last id older than an age: none of the events just written', async () => {
    const { events, unitOfWork } = stores();
    const { workspaceId, one } = await conversationsOf(stores());
    const id = await unitOfWork.run(() => events.append(workspaceId, one.id, title('now')));
    expect(await events.lastIdOlderThan(one.id, 60_000)).toBe(0n);
    expect(await events.lastIdOlderThan(one.id, -60_000)).toBe(id);
  });
});
