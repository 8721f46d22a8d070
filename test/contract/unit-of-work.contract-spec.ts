import { it } from '@jest/globals';
import { generateSId } from 'src/platform/ids/sid';
import { describeContract } from 'test/contract/stores';
import { expect } from 'test/support/expect';

describeContract('UnitOfWork', (stores) => {
  const conversationIn = (workspaceId: number) => ({
    sId: generateSId(),
    workspaceId,
    title: null,
    depth: 0,
    spaceId: null,
    requestedSpaceIds: [],
    forkedFrom: null,
  });

  it('keeps the writes of work that resolves and runs its after-commit callbacks in order', async () => {
    const { unitOfWork, conversations, workspace } = stores();
    const ws = await workspace();
    const calls: string[] = [];
    const created = await unitOfWork.run(async () => {
      unitOfWork.afterCommit(() => calls.push('first'));
      const conversation = await conversations.create(conversationIn(ws));
      unitOfWork.afterCommit(() => calls.push('second'));
      expect(calls).toEqual([]);
      return conversation;
    });
    expect(calls).toEqual(['first', 'second']);
    expect(await conversations.find(ws, created.sId)).toEqual(created);
  });

  it('undoes the writes of work that throws and drops its callbacks', async () => {
    const { unitOfWork, conversations, workspace } = stores();
    const ws = await workspace();
    const calls: string[] = [];
    const conversation = conversationIn(ws);
    await expect(
      unitOfWork.run(async () => {
        unitOfWork.afterCommit(() => calls.push('committed'));
        await conversations.create(conversation);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(calls).toEqual([]);
    expect(await conversations.find(ws, conversation.sId)).toBeNull();
  });

  it('joins the outer transaction when nested: an inner failure the outer catches is still undone with it', async () => {
    const { unitOfWork, conversations, workspace } = stores();
    const ws = await workspace();
    const kept = conversationIn(ws);
    await expect(
      unitOfWork.run(async () => {
        await unitOfWork.run(() => conversations.create(kept));
        throw new Error('outer refused');
      }),
    ).rejects.toThrow('outer refused');
    expect(await conversations.find(ws, kept.sId)).toBeNull();
  });

  it('runs an after-commit callback at once outside a transaction', async () => {
    const { unitOfWork } = stores();
    const calls: string[] = [];
    unitOfWork.afterCommit(() => calls.push('now'));
    expect(calls).toEqual(['now']);
  });

  it('answers several reads in the order given, in a transaction or not', async () => {
    const { unitOfWork, conversations, workspace } = stores();
    const ws = await workspace();
    const created = await conversations.create(conversationIn(ws));
    const [found, missing] = await unitOfWork.run(() =>
      unitOfWork.all([
        () => conversations.find(ws, created.sId),
        () => conversations.find(ws, generateSId()),
      ]),
    );
    expect(found).toEqual(created);
    expect(missing).toBeNull();
    const [outside] = await unitOfWork.all([() => conversations.findByIds(ws, [created.id])]);
    expect(outside).toEqual([created]);
  });
});
