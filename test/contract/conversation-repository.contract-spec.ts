import { it } from '@jest/globals';
import type { NewConversation } from 'src/modules/conversations/domain/conversation';
import { accessibleSpaces } from 'src/modules/conversations/domain/conversation';
import { generateSId } from 'src/platform/ids/sid';
import { describeContract } from 'test/contract/stores';
import { expect } from 'test/support/expect';

function newConversation(workspaceId: number, changes: Partial<NewConversation> = {}): NewConversation {
  return {
    sId: generateSId(),
    workspaceId,
    title: 'Plans',
    depth: 0,
    spaceId: null,
    requestedSpaceIds: [],
    forkedFrom: null,
    ...changes,
  };
}

const noSpaces = accessibleSpaces([]);

describeContract('ConversationRepository', (stores) => {
  it('finds a conversation by sId in its workspace only, and null for an unknown one', async () => {
    const { conversations, workspace } = stores();
    const [mine, other] = [await workspace(), await workspace()];
    const created = await conversations.create(newConversation(mine));
    expect(created).toMatchObject({
      workspaceId: mine,
      title: 'Plans',
      triggerId: null,
      metadata: {},
      hasError: false,
      forkedFrom: null,
    });
    expect(await conversations.find(mine, created.sId)).toEqual(created);
    expect(await conversations.find(other, created.sId)).toBeNull();
    expect(await conversations.find(mine, generateSId())).toBeNull();
    expect(await conversations.findByIds(other, [created.id])).toEqual([]);
  });

  it('refuses a second conversation of the same sId in a workspace, not in another', async () => {
    const { conversations, workspace } = stores();
    const [mine, other] = [await workspace(), await workspace()];
    const first = await conversations.create(newConversation(mine));
    await expect(conversations.create(newConversation(mine, { sId: first.sId }))).rejects.toThrow();
    await expect(conversations.create(newConversation(other, { sId: first.sId }))).resolves.toMatchObject({
      workspaceId: other,
    });
  });

  it('creates several in the order given', async () => {
    const { conversations, workspace } = stores();
    const ws = await workspace();
    const created = await conversations.createMany([
      newConversation(ws, { title: 'one' }),
      newConversation(ws, { title: 'two' }),
    ]);
    expect(created.map((c) => c.title)).toEqual(['one', 'two']);
    expect(created[0].id).toBeLessThan(created[1].id);
  });

  it("lists a member's conversations newest first, page by page, leaving out others' and deleted ones", async () => {
    const { conversations, workspace, user } = stores();
    const ws = await workspace();
    const [ada, bob] = [await user(ws), await user(ws)];
    const made = await conversations.createMany(
      ['a', 'b', 'c', 'd'].map((title) => newConversation(ws, { title })),
    );
    for (const c of made) await conversations.join(ws, c.id, ada);
    const bobs = await conversations.create(newConversation(ws, { title: 'bob' }));
    await conversations.join(ws, bobs.id, bob);
    await conversations.softDelete(ws, made[1].id);

    const firstPage = await conversations.listForUser(ws, ada, noSpaces, null, 2);
    expect(firstPage.map((c) => c.title)).toEqual(['d', 'c']);
    const secondPage = await conversations.listForUser(ws, ada, noSpaces, firstPage[1].id, 2);
    expect(secondPage.map((c) => c.title)).toEqual(['a']);
  });

  it('lists only the conversations whose spaces the reader may read', async () => {
    const { conversations, workspace, user, space } = stores();
    const ws = await workspace();
    const ada = await user(ws);
    const [open, closed] = [await space(ws), await space(ws)];
    const inOpen = await conversations.create(newConversation(ws, { title: 'open', spaceId: open.id }));
    const inClosed = await conversations.create(newConversation(ws, { title: 'closed', spaceId: closed.id }));
    const asking = await conversations.create(
      newConversation(ws, { title: 'asking', requestedSpaceIds: [closed.sId] }),
    );
    for (const c of [inOpen, inClosed, asking]) await conversations.join(ws, c.id, ada);
    const listed = await conversations.listForUser(ws, ada, accessibleSpaces([open]), null, 10);
    expect(listed.map((c) => c.title)).toEqual(['open']);
  });

  it('leaves a deleted conversation out of every read; deleting it again answers false', async () => {
    const { conversations, workspace } = stores();
    const ws = await workspace();
    const created = await conversations.create(newConversation(ws));
    expect(await conversations.softDelete(ws, created.id)).toBe(true);
    expect(await conversations.softDelete(ws, created.id)).toBe(false);
    expect(await conversations.find(ws, created.sId)).toBeNull();
    expect(await conversations.findByIds(ws, [created.id])).toEqual([]);
    expect(await conversations.findByRefs([{ workspaceId: ws, ids: [created.id] }])).toEqual([]);
  });

  it('finds by refs, each scoped by its workspace', async () => {
    const { conversations, workspace } = stores();
    const [one, two] = [await workspace(), await workspace()];
    const a = await conversations.create(newConversation(one));
    const b = await conversations.create(newConversation(two));
    const found = await conversations.findByRefs([
      { workspaceId: one, ids: [a.id, b.id] },
      { workspaceId: two, ids: [b.id] },
    ]);
    expect(found.map((c) => c.id).sort((x, y) => x - y)).toEqual([a.id, b.id]);
  });

  it('reserves consecutive ranks from 0, adding to the requested spaces', async () => {
    const { conversations, workspace, unitOfWork } = stores();
    const ws = await workspace();
    const created = await conversations.create(newConversation(ws, { requestedSpaceIds: ['m'] }));
    expect(await unitOfWork.run(() => conversations.allocateRanks(ws, created.id, 2))).toBe(0);
    expect(await unitOfWork.run(() => conversations.allocateRanks(ws, created.id, 1))).toBe(2);
    const reserved = await unitOfWork.run(() =>
      conversations.reserveRanks([
        { workspaceId: ws, id: created.id, count: 3, requestedSpaceIds: ['b', 'a'], title: null },
      ]),
    );
    expect(reserved.get(created.id)).toMatchObject({
      first: 3,
      conversation: { id: created.id, title: 'Plans', requestedSpaceIds: ['a', 'b', 'm'] },
    });
  });

  it('adds requested spaces sorted and once each, answering whether it added any', async () => {
    const { conversations, workspace } = stores();
    const ws = await workspace();
    const created = await conversations.create(newConversation(ws, { requestedSpaceIds: ['m'] }));
    expect(await conversations.addRequestedSpaces(ws, created.id, ['z', 'a', 'm'])).toBe(true);
    expect(await conversations.addRequestedSpaces(ws, created.id, ['a'])).toBe(false);
    expect((await conversations.find(ws, created.sId))?.requestedSpaceIds).toEqual(['a', 'm', 'z']);
  });

  it('updates the title and the error flag, and moves updatedAt', async () => {
    const { conversations, workspace } = stores();
    const ws = await workspace();
    const created = await conversations.create(newConversation(ws));
    const updated = await conversations.update(ws, created.id, { title: 'Renamed', hasError: true });
    expect(updated).toMatchObject({ id: created.id, title: 'Renamed', hasError: true });
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime());
    expect(await conversations.find(ws, created.sId)).toMatchObject({ title: 'Renamed', hasError: true });
  });

  it('joins a member once, and reads their participation and reads', async () => {
    const { conversations, workspace, user } = stores();
    const ws = await workspace();
    const ada = await user(ws);
    const created = await conversations.create(newConversation(ws));
    await conversations.join(ws, created.id, ada);
    await conversations.join(ws, created.id, ada);
    expect(await conversations.listParticipants(ws, created.id)).toEqual([
      { userId: ada, action: 'subscribed' },
    ]);
    const at = new Date('2026-03-02T10:00:00.000Z');
    await conversations.markRead(ws, created.id, ada, at);
    await conversations.setActionRequired(ws, created.id, ada, true);
    const participations = await conversations.participations(ws, [created.id], ada);
    expect(participations.get(created.id)).toEqual({ userId: ada, lastReadAt: at, actionRequired: true });
    const read = await conversations.findForReader(ws, created.sId, ada);
    expect(read).toMatchObject({
      conversation: { id: created.id },
      participation: { userId: ada, lastReadAt: at, actionRequired: true },
      spaceSId: null,
      hasChildren: false,
    });
  });

  it('marks reads of several members at once, joining those who were not participants', async () => {
    const { conversations, workspace, user } = stores();
    const ws = await workspace();
    const [ada, bob] = [await user(ws), await user(ws)];
    const created = await conversations.create(newConversation(ws));
    const at = new Date('2026-03-02T11:00:00.000Z');
    await conversations.markReadMany(
      [
        { workspaceId: ws, conversationId: created.id, userId: ada },
        { workspaceId: ws, conversationId: created.id, userId: bob },
      ],
      at,
    );
    expect((await conversations.participations(ws, [created.id], bob)).get(created.id)?.lastReadAt).toEqual(
      at,
    );
    expect(await conversations.creatorId(ws, created.id)).toBe(ada);
  });

  it("reads a conversation's space sId and whether it was forked", async () => {
    const { conversations, workspace, user, space } = stores();
    const ws = await workspace();
    const ada = await user(ws);
    const home = await space(ws);
    const parent = await conversations.create(newConversation(ws, { spaceId: home.id }));
    const fork = await conversations.create(
      newConversation(ws, {
        depth: 0,
        forkedFrom: {
          parentConversationId: parent.id,
          sourceMessageId: 1,
          branchedAt: new Date('2026-03-02T09:00:00.000Z'),
          forkedByUserId: ada,
          fileCopyStatus: 'pending',
        },
      }),
    );
    expect(await conversations.findForReader(ws, parent.sId, ada)).toMatchObject({
      participation: null,
      spaceSId: home.sId,
      hasChildren: true,
    });
    expect((await conversations.findChildren(ws, [parent.id])).map((c) => c.id)).toEqual([fork.id]);
    await conversations.setFileCopyStatus(ws, fork.id, 'completed');
    expect((await conversations.find(ws, fork.sId))?.forkedFrom?.fileCopyStatus).toBe('completed');
  });

  it('locks the conversations of its workspace only', async () => {
    const { conversations, workspace, unitOfWork } = stores();
    const [mine, other] = [await workspace(), await workspace()];
    const a = await conversations.create(newConversation(mine));
    const b = await conversations.create(newConversation(other));
    const locked = await unitOfWork.run(() => conversations.lockUnlessBusy(mine, [a.id, b.id]));
    expect(locked).toEqual([a.id]);
  });
});
