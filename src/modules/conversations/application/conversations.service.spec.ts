import { describe, expect, it } from '@jest/globals';
import { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import { PAGE_MAX } from 'src/modules/conversations/application/conversations.service';
import { conversationsContext, mentionsOf, messageInput } from 'test/fakes/conversations-context';

const MINUTE = 60_000;

function setUp() {
  const context = conversationsContext();
  const { directory } = context;
  const workspace = directory.addWorkspace();
  const ada = directory.addMember(workspace, 'Ada Lovelace');
  const grace = directory.addMember(workspace, 'Grace Hopper');
  const admin = directory.addMember(workspace, 'Alan Turing', 'admin');
  const finance = directory.addSpace(workspace, 'Finance', [ada]);
  const helper = directory.addAgent(workspace, 'helper');
  const analyst = directory.addAgent(workspace, 'analyst', { toolSpaces: [finance] });
  const stranger = directory.addMember(directory.addWorkspace('Elsewhere'), 'Eve Stranger');
  return { ...context, workspace, ada, grace, admin, finance, helper, analyst, stranger };
}

describe('ConversationsService', () => {
  it('creates a conversation with its title: the creator takes part and has read it', async () => {
    const { conversations, conversationRepository, eventLog, ada, clock } = setUp();

    const { conversation, message, contentFragments } = await conversations.create(ada, {
      title: '  Plans  ',
    });

    expect(conversation).toMatchObject({ title: 'Plans', depth: 0, spaceId: null, requestedSpaceIds: [] });
    expect(message).toBeNull();
    expect(contentFragments).toEqual([]);
    const participation = await conversationRepository.participations(
      ada.workspaceId,
      [conversation.id],
      ada.userId,
    );
    expect(participation.get(conversation.id)).toEqual({
      userId: ada.userId,
      lastReadAt: clock.now(),
      actionRequired: false,
    });
    expect(eventLog.eventsOf(conversation.id)).toEqual([
      expect.objectContaining({ type: 'conversation_title', title: 'Plans' }),
    ]);
  });

  it('creates a conversation with its first message, titled after it, and announces the post once committed', async () => {
    const { conversations, eventLog, inProcessEvents, ada, helper } = setUp();

    const { conversation, message } = await conversations.create(ada, {
      message: messageInput('What changed this week?\nDetails below.', mentionsOf(helper)),
    });

    expect(conversation.title).toBe('What changed this week?');
    expect(message).toMatchObject({
      type: 'user_message',
      rank: 0,
      version: 0,
      content: 'What changed this week?\nDetails below.',
      user: { sId: ada.userSId, fullName: 'Ada Lovelace' },
      mentions: [{ configurationId: helper.sId }],
      richMentions: [expect.objectContaining({ id: helper.sId, label: 'helper', status: 'approved' })],
      context: expect.objectContaining({ origin: 'api' }),
    });
    expect(eventLog.eventsOf(conversation.id).map((event) => event.type)).toEqual([
      'user_message_new',
      'conversation_title',
    ]);
    expect(inProcessEvents.committedOf(MessagePosted)).toEqual([
      expect.objectContaining({
        newAgentMentions: [helper.sId],
        message: expect.objectContaining({ rank: 0 }),
      }),
    ]);
  });

  it('places content fragments before the first message, in the order given', async () => {
    const { conversations, ada } = setUp();

    const created = await conversations.create(ada, {
      contentFragments: [
        { title: 'notes.md', content: '# Notes', contentType: 'text/markdown' },
        { title: 'data.csv', content: 'a,b', contentType: 'text/csv' },
      ],
      message: messageInput('Summarise these'),
    });

    expect(created.contentFragments.map((fragment) => [fragment.title, fragment.rank])).toEqual([
      ['notes.md', 0],
      ['data.csv', 1],
    ]);
    expect(created.message?.rank).toBe(2);
  });

  it('attaches a data source document its reader names, as a content node holding its text', async () => {
    const { conversations, fragmentDocuments, fragmentRepository, workspace, ada, grace } = setUp();
    fragmentDocuments.add(workspace.id, [ada.userId], {
      documentId: 'refunds',
      viewSId: 'dsv_handbook',
      spaceName: 'Company Data',
      title: 'Refund policy',
      mimeType: 'text/markdown',
      sourceUrl: 'https://intranet.example.com/refunds',
      text: 'Paid within 30 days.',
    });
    const node = { nodeId: 'refunds', nodeDataSourceViewId: 'dsv_handbook' };

    const created = await conversations.create(ada, {
      contentFragments: [{ title: 'Refunds', ...node }],
      message: messageInput('Summarise it'),
    });

    const [fragment] = created.contentFragments;
    expect(fragment).toMatchObject({
      contentFragmentType: 'content_node',
      ...node,
      nodeType: 'document',
      contentType: 'text/markdown',
      sourceUrl: 'https://intranet.example.com/refunds',
      contentNodeData: { ...node, nodeType: 'document', provider: null, spaceName: 'Company Data' },
    });
    const stored = await fragmentRepository.findText(ada.workspaceId, created.conversation.id, fragment.sId);
    expect(stored?.text).toBe('Refund policy\n\nPaid within 30 days.');
    // Someone who does not read it gets a not found, and no conversation.
    await expect(
      conversations.create(grace, { contentFragments: [{ title: 'Refunds', ...node }] }),
    ).rejects.toMatchObject({ code: 'data_source_document_not_found' });
    expect((await conversations.list(grace, { limit: 10, beforeId: null })).items).toEqual([]);
  });

  it('creates nothing when the space, a mention or a fragment is refused', async () => {
    const context = setUp();
    const { conversations, conversationRepository, eventLog, inProcessEvents, grace, ada, helper, finance } =
      context;
    const refusals: [() => Promise<unknown>, string][] = [
      [() => conversations.create(grace, { title: 'x', spaceId: finance.sId }), 'space_not_found'],
      [
        () => conversations.create(ada, { message: messageInput('hi', mentionsOf({ sId: 'nobody0000' })) }),
        'invalid_request_error',
      ],
      [
        () =>
          conversations.create(ada, {
            message: messageInput('hi', [{ type: 'user', userId: 'notamember' }]),
          }),
        'invalid_request_error',
      ],
      [
        () =>
          conversations.create(ada, {
            title: 'With a file',
            contentFragments: [{ title: 'gone.pdf', fileId: 'fil_missing' }],
            message: messageInput('Read it', mentionsOf(helper)),
          }),
        'file_not_found',
      ],
    ];
    for (const [refused, code] of refusals) await expect(refused()).rejects.toMatchObject({ code });

    expect(conversationRepository.allIn(ada.workspaceId)).toEqual([]);
    expect(await conversations.list(ada, { limit: 10, beforeId: null })).toEqual({ items: [], next: null });
    // The last attempt wrote its conversation (row 1) and title before the file was refused: undone.
    expect(eventLog.eventsOf(1)).toEqual([]);
    expect(inProcessEvents.committed).toEqual([]);
  });

  it("gets a conversation of the caller's workspace, and not another workspace's or a deleted one", async () => {
    const { conversations, conversationRepository, ada, grace, stranger } = setUp();
    const { conversation } = await conversations.create(ada, { title: 'Open' });

    expect(await conversations.get(grace, conversation.sId)).toEqual(conversation);
    expect(await conversations.getById(grace, conversation.id)).toEqual(conversation);
    await expect(conversations.get(stranger, conversation.sId)).rejects.toMatchObject({
      code: 'conversation_not_found',
    });
    await expect(conversations.getById(stranger, conversation.id)).rejects.toMatchObject({
      code: 'conversation_not_found',
    });
    expect(await conversations.canRead(stranger, conversation.sId)).toBe(false);

    await conversationRepository.softDelete(ada.workspaceId, conversation.id);
    await expect(conversations.get(ada, conversation.sId)).rejects.toMatchObject({
      code: 'conversation_not_found',
    });
  });

  it('lets only the members of its space read a conversation created in a space', async () => {
    const { conversations, ada, grace, admin, finance } = setUp();
    const { conversation } = await conversations.create(ada, { title: 'Budget', spaceId: finance.sId });

    expect(conversation.spaceId).toBe(finance.id);
    expect((await conversations.get(ada, conversation.sId)).sId).toBe(conversation.sId);
    for (const outsider of [grace, admin]) {
      await expect(conversations.get(outsider, conversation.sId)).rejects.toMatchObject({
        code: 'conversation_access_restricted',
      });
      expect(await conversations.canRead(outsider, conversation.sId)).toBe(false);
    }
  });

  it('restricts a conversation to the readers of the spaces its mentioned agents need', async () => {
    const { conversations, messages, accessChanges, ada, grace, analyst, finance } = setUp();
    const { conversation } = await conversations.create(ada, { title: 'Open' });
    expect(await conversations.canRead(grace, conversation.sId)).toBe(true);

    await messages.postMessage(ada, conversation.sId, messageInput('Numbers?', mentionsOf(analyst)));

    expect((await conversations.get(ada, conversation.sId)).requestedSpaceIds).toEqual([finance.sId]);
    await expect(conversations.get(grace, conversation.sId)).rejects.toMatchObject({
      code: 'conversation_access_restricted',
    });
    // Open streams of readers who lost access are told to check again.
    expect(accessChanges.announced).toEqual([
      { kind: 'conversation_changed', conversationId: conversation.id },
    ]);
  });

  it("lists the caller's conversations, newest first, a page at a time", async () => {
    const { conversations, ada, grace } = setUp();
    const created = [];
    for (const title of ['one', 'two', 'three']) {
      created.push((await conversations.create(ada, { title })).conversation);
    }
    await conversations.create(grace, { title: "Grace's" });

    const first = await conversations.list(ada, { limit: 2, beforeId: null });
    const second = await conversations.list(ada, { limit: 2, beforeId: first.next });

    expect(first.items.map((c) => c.title)).toEqual(['three', 'two']);
    expect(first.next).toBe(created[1].id);
    expect(second).toEqual({ items: [created[0]], next: null });
  });

  it('pages at most PAGE_MAX conversations at a time', async () => {
    const { conversations, ada } = setUp();
    for (let i = 0; i <= PAGE_MAX; i++) await conversations.create(ada, { title: `c${i}` });

    const page = await conversations.list(ada, { limit: 1_000, beforeId: null });

    expect(page.items).toHaveLength(PAGE_MAX);
    expect(page.next).toBe(page.items[PAGE_MAX - 1].id);
  });

  it('renames a conversation, announcing the title, and marks it read or unread for the caller', async () => {
    const { conversations, conversationRepository, eventLog, ada, grace, clock } = setUp();
    const { conversation } = await conversations.create(ada, { title: 'Draft' });
    clock.advance(MINUTE);

    const renamed = await conversations.update(grace, conversation.sId, { title: '  Final  ', read: true });

    expect(renamed).toMatchObject({ title: 'Final', updatedAt: clock.now() });
    expect(eventLog.eventsOfType(conversation.id, 'conversation_title').map((event) => event.title)).toEqual([
      'Draft',
      'Final',
    ]);
    const read = async () =>
      (await conversationRepository.participations(ada.workspaceId, [conversation.id], grace.userId)).get(
        conversation.id,
      )?.lastReadAt;
    expect(await read()).toEqual(clock.now());
    await conversations.update(grace, conversation.sId, { read: false });
    expect(await read()).toBeNull();
  });

  it('refuses an empty or too long title and changes nothing', async () => {
    const { conversations, eventLog, ada } = setUp();
    const { conversation } = await conversations.create(ada, { title: 'Draft' });

    for (const title of ['   ', 'x'.repeat(201)]) {
      await expect(conversations.update(ada, conversation.sId, { title })).rejects.toMatchObject({
        code: 'invalid_request_error',
      });
    }
    expect((await conversations.get(ada, conversation.sId)).title).toBe('Draft');
    expect(eventLog.eventsOfType(conversation.id, 'conversation_title')).toHaveLength(1);
  });

  it('tells which open streams may still read their conversation', async () => {
    const { conversations, directory, ada, grace, finance, stranger } = setUp();
    const { conversation: open } = await conversations.create(ada, { title: 'Open' });
    const { conversation: budget } = await conversations.create(ada, {
      title: 'Budget',
      spaceId: finance.sId,
    });
    const grant = (caller: typeof ada, conversation: typeof open) => ({
      keyId: caller.keyId,
      workspaceId: caller.workspaceId,
      conversationId: conversation.id,
    });

    expect(
      await conversations.stillReadable([
        grant(ada, open),
        grant(ada, budget),
        grant(grace, budget),
        { ...grant(stranger, open), workspaceId: stranger.workspaceId },
      ]),
    ).toEqual([true, true, false, false]);

    directory.leaveSpace(finance, ada);
    directory.revokeKey(grace.keyId);
    expect(
      await conversations.stillReadable([grant(ada, budget), grant(grace, open), grant(ada, open)]),
    ).toEqual([false, false, true]);
  });
});
