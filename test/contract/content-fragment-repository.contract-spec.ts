import { it } from '@jest/globals';
import type { NewContentFragment } from 'src/modules/conversations/application/ports/content-fragment.repository';
import { generateSId } from 'src/platform/ids/sid';
import { type Stores, describeContract, newConversation } from 'test/contract/stores';
import { expect } from 'test/support/expect';

async function conversationOf(stores: Stores) {
  const workspaceId = await stores.workspace();
  const conversation = await newConversation(stores, workspaceId);
  const fragment = (rank: number, changes: Partial<NewContentFragment> = {}): NewContentFragment => ({
    sId: generateSId(),
    workspaceId,
    conversationId: conversation.id,
    rank,
    version: 0,
    title: `notes ${rank}`,
    contentType: 'text/plain',
    fileSId: null,
    sourceUrl: null,
    author: null,
    node: null,
    text: 'déjà vu',
    ...changes,
  });
  return { workspaceId, conversation, fragment };
}

describeContract('ContentFragmentRepository', (stores) => {
  it('inserts in the order given, counting the UTF-8 bytes of the text and returning no text', async () => {
    const { fragments } = stores();
    const { fragment } = await conversationOf(stores());
    const saved = await fragments.insert([fragment(1), fragment(0)]);
    expect(saved.map((f) => f.rank)).toEqual([1, 0]);
    expect(saved[0]).toMatchObject({ type: 'content_fragment', textBytes: 9, title: 'notes 1' });
    expect(saved[0]).not.toHaveProperty('text');
    expect(saved[0].createdAt).toBeInstanceOf(Date);
  });

  it('holds one fragment per rank of a conversation and one per sId of a workspace', async () => {
    const { fragments } = stores();
    const { fragment } = await conversationOf(stores());
    const [first] = await fragments.insert([fragment(0)]);
    await expect(fragments.insert([fragment(0)])).rejects.toThrow();
    await expect(fragments.insert([fragment(1, { sId: first.sId })])).rejects.toThrow();
  });

  it('lists in rank order after a rank, page by page, scoped by workspace', async () => {
    const { fragments, workspace } = stores();
    const { workspaceId, conversation, fragment } = await conversationOf(stores());
    await fragments.insert([fragment(2), fragment(0), fragment(4)]);
    const page = await fragments.listAfter(workspaceId, conversation.id, -1, 2);
    expect(page.map((f) => f.rank)).toEqual([0, 2]);
    expect(page[0]).not.toHaveProperty('text');
    expect((await fragments.listAfter(workspaceId, conversation.id, 2, 2)).map((f) => f.rank)).toEqual([4]);
    expect(await fragments.listAfter(await workspace(), conversation.id, -1, 10)).toEqual([]);
    const texts = await fragments.listTextsUpTo(workspaceId, conversation.id, 2);
    expect(texts.map((f) => [f.rank, f.text])).toEqual([
      [0, 'déjà vu'],
      [2, 'déjà vu'],
    ]);
  });

  it('finds a fragment with its text by sId, in its conversation and workspace only', async () => {
    const { fragments, workspace } = stores();
    const { workspaceId, conversation, fragment } = await conversationOf(stores());
    const author = { username: 'ada', fullName: null, email: null, profilePictureUrl: null };
    const [saved] = await fragments.insert([fragment(0, { author, sourceUrl: 'https://example.com/a' })]);
    expect(await fragments.exists(workspaceId, conversation.id, saved.sId)).toBe(true);
    expect(await fragments.exists(await workspace(), conversation.id, saved.sId)).toBe(false);
    expect(await fragments.exists(workspaceId, conversation.id, generateSId())).toBe(false);
    expect(await fragments.findText(workspaceId, conversation.id, saved.sId)).toEqual({
      ...saved,
      text: 'déjà vu',
    });
    expect(await fragments.findText(workspaceId, conversation.id, generateSId())).toBeNull();
    expect(await fragments.findText(await workspace(), conversation.id, saved.sId)).toBeNull();
  });
});
