import { describe, expect, it, jest } from '@jest/globals';
import type { Caller } from 'src/platform/auth/caller';
import { ForksService } from 'src/modules/conversations/application/forks.service';
import { conversationsContext, mentionsOf, messageInput } from 'test/fakes/conversations-context';

const MINUTE = 60_000;

/** What a slot says: a message's content, a fragment's title. */
const contentOf = (slot: { type: string; content?: string; title?: string }) =>
  slot.type === 'content_fragment' ? slot.title : slot.content;

/** Lets the work a service left running after its answer (not awaited by it) settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A conversation in a space, as its members made it: a file, a question answered by the agent,
 * then a second question still being answered.
 */
async function setUp() {
  const context = conversationsContext();
  const { directory, conversations, messages, fragmentFiles, clock } = context;
  const workspace = directory.addWorkspace();
  const ada = directory.addMember(workspace, 'Ada Lovelace');
  const grace = directory.addMember(workspace, 'Grace Hopper');
  const outsider = directory.addMember(workspace, 'Eve Outsider');
  const research = directory.addSpace(workspace, 'Research', [ada, grace]);
  const helper = directory.addAgent(workspace, 'helper');
  fragmentFiles.add(workspace.id, {
    sId: 'fil_report',
    contentType: 'application/pdf',
    text: 'Q1 revenue: 3',
  });
  const { conversation } = await conversations.create(ada, {
    title: 'Quarterly report',
    spaceId: research.sId,
    contentFragments: [{ title: 'report.pdf', fileId: 'fil_report' }],
  });
  const question = await messages.postMessage(
    ada,
    conversation.sId,
    messageInput('Revenue?', mentionsOf(helper)),
  );
  const [answer] = await context.startAnswers();
  await context.succeed(answer, 'Three.');
  const followUp = await messages.postMessage(
    ada,
    conversation.sId,
    messageInput('Costs?', mentionsOf(helper)),
  );
  const [running] = await context.startAnswers();
  clock.advance(MINUTE);
  const service = new ForksService(
    conversations,
    messages,
    context.conversationRepository,
    context.messageRepository,
    context.fragmentRepository,
    context.writer,
    context.unitOfWork,
    context.log,
    clock,
  );
  /** The latest version of each slot of a conversation, messages and fragments, in rank order. */
  const slots = async (caller: Caller, sId: string) => {
    const read = await conversations.get(caller, sId);
    return (await messages.listMessages(caller, read, { limit: 100, afterRank: -1 })).page.items;
  };
  return {
    ...context,
    service,
    ada,
    grace,
    outsider,
    research,
    helper,
    conversation,
    question,
    answer: answer.message,
    followUp,
    running: running.message,
    slots,
  };
}

describe('ForksService', () => {
  it('forks up to a message: its latest slots, one level deeper, readable as the parent, by its forker', async () => {
    const { service, conversationRepository, grace, conversation, answer, clock, slots, research } =
      await setUp();

    const child = await service.fork(grace, conversation.sId, answer.sId);

    expect(child).toMatchObject({
      title: 'Quarterly report',
      depth: 1,
      spaceId: research.id,
      requestedSpaceIds: conversation.requestedSpaceIds,
      forkedFrom: {
        parentConversationId: conversation.id,
        sourceMessageId: answer.id,
        branchedAt: clock.now(),
        forkedByUserId: grace.userId,
      },
    });
    expect(child.sId).not.toBe(conversation.sId);
    const copied = await slots(grace, child.sId);
    expect(copied.map((slot) => [slot.type, slot.rank, slot.version, contentOf(slot)])).toEqual([
      ['content_fragment', 0, 0, 'report.pdf'],
      ['user_message', 1, 0, 'Revenue?'],
      ['agent_message', 2, 0, 'Three.'],
    ]);
    const parentSIds = (await slots(grace, conversation.sId)).map((slot) => slot.sId);
    expect(copied.some((slot) => parentSIds.includes(slot.sId))).toBe(false);
    const participation = await conversationRepository.participations(
      grace.workspaceId,
      [child.id],
      grace.userId,
    );
    expect(participation.get(child.id)?.lastReadAt).toEqual(clock.now());
  });

  it("copies the fragments' text and files, and answers that answer the copied questions", async () => {
    const { service, fragmentRepository, messageRepository, grace, conversation, answer } = await setUp();

    const child = await service.fork(grace, conversation.sId, answer.sId);

    expect(fragmentRepository.allIn(child.id)).toEqual([
      expect.objectContaining({ title: 'report.pdf', fileSId: 'fil_report', text: 'Q1 revenue: 3', rank: 0 }),
    ]);
    const [question, reply] = messageRepository.allIn(child.id);
    expect(reply).toMatchObject({ type: 'agent_message', parentMessageId: question.id, status: 'succeeded' });
  });

  it('settles the file copy once the fork is committed', async () => {
    const { service, conversationRepository, grace, conversation, answer } = await setUp();

    const child = await service.fork(grace, conversation.sId, answer.sId);
    await settle();

    expect(child.forkedFrom?.fileCopyStatus).toBe('pending');
    expect(conversationRepository.row(grace.workspaceId, child.id)?.forkedFrom?.fileCopyStatus).toBe(
      'completed',
    );
  });

  it('copies an answer still being generated as cancelled, leaving the parent running', async () => {
    const { service, messageRepository, ada, conversation, running } = await setUp();

    const child = await service.fork(ada, conversation.sId, running.sId);

    expect(messageRepository.allIn(child.id).at(-1)).toMatchObject({
      type: 'agent_message',
      rank: 4,
      status: 'cancelled',
    });
    const [inParent] = await messageRepository.findByIds(ada.workspaceId, [running.id]);
    expect(inParent).toMatchObject({ status: 'created' });
  });

  it('copies the latest version of an edited message', async () => {
    const { service, messageRepository, slots, ada, conversation, question, answer } = await setUp();
    const original = await messageRepository.findBySId(ada.workspaceId, conversation.id, question.sId);
    if (original?.type !== 'user_message') throw new Error('The question is a user message.');
    const { id: _id, createdAt: _createdAt, ...row } = original;
    await messageRepository.insertUserMessage({
      ...row,
      sId: 'editedQ001',
      version: 1,
      content: 'Revenue in Q1?',
    });

    const child = await service.fork(ada, conversation.sId, answer.sId);

    expect((await slots(ada, child.sId)).map((slot) => [slot.version, contentOf(slot)])).toEqual([
      [0, 'report.pdf'],
      [0, 'Revenue in Q1?'],
      [0, 'Three.'],
    ]);
  });

  it('refuses an unknown source, a fragment as source and a reader without access, creating nothing', async () => {
    const { service, conversationRepository, fragmentRepository, ada, outsider, conversation, answer } =
      await setUp();
    const [fragment] = fragmentRepository.allIn(conversation.id);
    const before = conversationRepository.allIn(ada.workspaceId);

    const refusals: [() => Promise<unknown>, string][] = [
      [() => service.fork(ada, conversation.sId, 'unknown000'), 'message_not_found'],
      [() => service.fork(ada, conversation.sId, fragment.sId), 'message_not_found'],
      [() => service.fork(ada, 'unknown000', answer.sId), 'conversation_not_found'],
      [() => service.fork(outsider, conversation.sId, answer.sId), 'conversation_access_restricted'],
    ];
    for (const [refused, code] of refusals) await expect(refused()).rejects.toMatchObject({ code });

    expect(conversationRepository.allIn(ada.workspaceId)).toEqual(before);
  });

  it('leaves nothing behind when a copy fails', async () => {
    const { service, conversationRepository, messageRepository, ada, conversation, answer } = await setUp();
    const before = conversationRepository.allIn(ada.workspaceId);
    jest.spyOn(messageRepository, 'insertAgentMessage').mockRejectedValueOnce(new Error('disk full'));

    await expect(service.fork(ada, conversation.sId, answer.sId)).rejects.toThrow('disk full');

    expect(conversationRepository.allIn(ada.workspaceId)).toEqual(before);
  });

  it('settles no file copy of a fork that did not commit', async () => {
    const { service, conversationRepository, unitOfWork, ada, conversation, answer, log } = await setUp();
    const before = conversationRepository.allIn(ada.workspaceId);
    const setStatus = jest.spyOn(conversationRepository, 'setFileCopyStatus');
    unitOfWork.failNextCommit();

    await expect(service.fork(ada, conversation.sId, answer.sId)).rejects.toThrow('commit failed');
    await settle();

    expect(conversationRepository.allIn(ada.workspaceId)).toEqual(before);
    expect(setStatus).not.toHaveBeenCalled();
    expect(log.entries).toEqual([]);
  });

  it('logs a file copy it could not settle, and still returns the fork', async () => {
    const { service, conversationRepository, ada, conversation, answer, log } = await setUp();
    jest
      .spyOn(conversationRepository, 'setFileCopyStatus')
      .mockRejectedValueOnce(new Error('connection lost'));

    const child = await service.fork(ada, conversation.sId, answer.sId);
    await settle();

    expect(conversationRepository.row(ada.workspaceId, child.id)?.forkedFrom?.fileCopyStatus).toBe('pending');
    expect(log.entries).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'Could not finish the file copy of a fork',
        fields: expect.objectContaining({ conversationId: child.sId }),
      }),
    ]);
  });
});
