import { describe, expect, it } from '@jest/globals';
import { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import type { AgentMessage } from 'src/modules/conversations/domain/message';
import { MessageVersionsService } from 'src/modules/conversations/application/message-versions.service';
import { conversationsContext, mentionsOf, messageInput } from 'test/fakes/conversations-context';
import { InMemoryScheduledWakeUps } from 'test/fakes/scheduled-wake-ups';

const MINUTE = 60_000;

/** Ada asked two agents; the helper answered, the analyst is still answering. */
async function setUp() {
  const scheduledWakeUps = new InMemoryScheduledWakeUps();
  const context = conversationsContext({ scheduledWakeUps });
  const { directory, conversations, messages, clock } = context;
  const workspace = directory.addWorkspace();
  const ada = directory.addMember(workspace, 'Ada Lovelace');
  const grace = directory.addMember(workspace, 'Grace Hopper');
  const helper = directory.addAgent(workspace, 'helper');
  const analyst = directory.addAgent(workspace, 'analyst');
  const critic = directory.addAgent(workspace, 'critic');
  const { conversation } = await conversations.create(ada, { title: 'Plans' });
  const question = await messages.postMessage(ada, conversation.sId, {
    ...messageInput('What next?', mentionsOf(helper, analyst)),
    context: { ...messageInput('').context, timezone: 'Asia/Tokyo' },
  });
  const [helperRun, analystRun] = await context.startAnswers();
  await context.succeed(helperRun, 'Rest.');
  clock.advance(MINUTE);
  const service = new MessageVersionsService(
    conversations,
    messages,
    context.agentMessages,
    context.conversationRepository,
    context.messageRepository,
    context.writer,
    directory.agents,
    context.eventLog,
    context.inProcessEvents,
    context.unitOfWork,
    clock,
  );
  const edit = (
    caller = ada,
    content = 'What now?',
    mentioned: { sId: string }[] = [helper, analyst],
    sId = question.sId,
  ) => service.edit(caller, conversation.sId, sId, { content, mentions: mentionsOf(...mentioned) });
  /** The latest version of each slot, as the conversation shows them. */
  const latest = async () =>
    (await context.messageRepository.listLatest(ada.workspaceId, conversation.id, -1, 100)).messages;
  const versionsAt = (rank: number) =>
    context.messageRepository.allIn(conversation.id).filter((message) => message.rank === rank);
  return {
    ...context,
    scheduledWakeUps,
    service,
    workspace,
    ada,
    grace,
    helper,
    analyst,
    critic,
    conversation,
    question,
    answered: helperRun.message,
    running: analystRun.message,
    edit,
    latest,
    versionsAt,
  };
}

describe('MessageVersionsService.edit', () => {
  it("writes the edit as the next version at the message's rank, keeping the earlier one and its context", async () => {
    const { edit, question, versionsAt, eventLog, conversation } = await setUp();

    const edited = await edit();

    expect(edited).toMatchObject({
      type: 'user_message',
      rank: question.rank,
      version: 1,
      content: 'What now?',
      context: expect.objectContaining({ timezone: 'Asia/Tokyo', origin: 'api' }),
    });
    expect(edited.sId).not.toBe(question.sId);
    expect(versionsAt(question.rank).map((message) => [message.version, message.content])).toEqual([
      [0, 'What next?'],
      [1, 'What now?'],
    ]);
    expect(eventLog.eventsOfType(conversation.id, 'user_message_new').at(-1)).toMatchObject({
      messageId: edited.sId,
      message: { version: 1, content: 'What now?' },
    });
  });

  it('answers the edit again: a new version of each answer, run again, the running one cancelled first', async () => {
    const { edit, latest, versionsAt, answered, running, eventLog, conversation, inProcessEvents } =
      await setUp();

    const edited = await edit();

    const answers = (await latest()).filter(
      (message): message is AgentMessage => message.type === 'agent_message',
    );
    expect(answers.map((answer) => [answer.rank, answer.version, answer.status, answer.content])).toEqual([
      [answered.rank, 1, 'created', ''],
      [running.rank, 1, 'created', ''],
    ]);
    expect(answers.every((answer) => answer.parentMessageId === edited.id)).toBe(true);
    expect(versionsAt(running.rank)[0]).toMatchObject({ version: 0, status: 'cancelled' });
    expect(versionsAt(answered.rank)[0]).toMatchObject({ version: 0, status: 'succeeded', content: 'Rest.' });
    expect(
      eventLog
        .eventsOfType(conversation.id, 'agent_message_new')
        .slice(-2)
        .map((event) => event.messageId),
    ).toEqual(answers.map((answer) => answer.sId));
    const [posted] = inProcessEvents.committedOf(MessagePosted).slice(-1);
    expect(posted).toMatchObject({ message: { sId: edited.sId }, newAgentMentions: [] });
    expect(posted.rerun?.map((answer) => answer.sId)).toEqual(answers.map((answer) => answer.sId));
  });

  it('cancels, empty, the new version of an answer whose agent the edit no longer mentions, and runs the agents it adds', async () => {
    const { edit, latest, helper, critic, answered, running, clock, inProcessEvents } = await setUp();

    await edit(undefined, 'Ask the critic', [helper, critic]);

    const answers = (await latest()).filter((message) => message.type === 'agent_message');
    expect(answers.map((answer) => [answer.rank, answer.version, answer.status, answer.content])).toEqual([
      [answered.rank, 1, 'created', ''],
      [running.rank, 1, 'cancelled', ''],
    ]);
    expect(answers[1]).toMatchObject({ completedAt: clock.now() });
    const [posted] = inProcessEvents.committedOf(MessagePosted).slice(-1);
    expect(posted.newAgentMentions).toEqual([critic.sId]);
    expect(posted.rerun?.map((answer) => answer.rank)).toEqual([answered.rank]);
  });

  it('runs each new version with the latest version of its agent', async () => {
    const { edit, latest, directory, helper } = await setUp();
    directory.updateAgent(helper, { name: 'helper-v2' });

    await edit();

    expect((await latest()).find((message) => message.type === 'agent_message')).toMatchObject({
      agentSId: helper.sId,
      version: 1,
      agentVersion: 2,
    });
  });

  it('refuses an edit by anyone but the author, of an answer, of an earlier version, or of an unknown message', async () => {
    const context = await setUp();
    const { edit, grace, ada, answered, question, conversation, messageRepository, inProcessEvents } =
      context;
    await edit();
    const before = messageRepository.allIn(conversation.id);
    const posts = inProcessEvents.committedOf(MessagePosted).length;

    const refusals: [() => Promise<unknown>, string][] = [
      [() => edit(grace, 'Mine now'), 'action_not_allowed'],
      [() => edit(ada, 'x', [], answered.sId), 'invalid_request_error'],
      [() => edit(ada, 'Again', [], question.sId), 'invalid_request_error'],
      [() => edit(ada, 'x', [], 'unknown000'), 'message_not_found'],
    ];
    for (const [refused, code] of refusals) await expect(refused()).rejects.toMatchObject({ code });

    expect(messageRepository.allIn(conversation.id)).toEqual(before);
    expect(inProcessEvents.committedOf(MessagePosted)).toHaveLength(posts);
  });

  it('refuses a mention of an unknown agent, and an edit while another member has a wake-up scheduled', async () => {
    const { edit, ada, grace, conversation, scheduledWakeUps, messageRepository } = await setUp();
    const before = messageRepository.allIn(conversation.id);

    await expect(edit(ada, 'x', [{ sId: 'nobody0000' }])).rejects.toMatchObject({
      code: 'invalid_request_error',
    });
    scheduledWakeUps.schedule(ada.workspaceId, conversation.id, grace.userId);
    await expect(edit()).rejects.toMatchObject({ code: 'refused_in_current_state' });

    expect(messageRepository.allIn(conversation.id)).toEqual(before);
  });

  it('announces nothing to the runtime when the edit does not commit', async () => {
    const { edit, unitOfWork, inProcessEvents, messageRepository, conversation } = await setUp();
    const before = messageRepository.allIn(conversation.id);
    const posts = inProcessEvents.committed.length;
    unitOfWork.failNextCommit();

    await expect(edit()).rejects.toThrow('commit failed');

    expect(messageRepository.allIn(conversation.id)).toEqual(before);
    expect(inProcessEvents.committed).toHaveLength(posts);
  });
});

describe('MessageVersionsService.retry', () => {
  it('writes a new version of a finished answer, answering the latest question, run again', async () => {
    const { service, ada, conversation, answered, question, versionsAt, inProcessEvents } = await setUp();

    const retried = await service.retry(ada, conversation.sId, answered.sId);

    expect(retried).toMatchObject({ rank: answered.rank, version: 1, status: 'created', content: '' });
    expect(versionsAt(answered.rank).map((message) => message.version)).toEqual([0, 1]);
    const [posted] = inProcessEvents.committedOf(MessagePosted).slice(-1);
    expect(posted).toMatchObject({ message: { sId: question.sId }, newAgentMentions: [] });
    expect(posted.rerun?.map((answer) => answer.sId)).toEqual([retried.sId]);
  });

  it('refuses a running answer (409) and a user message (400)', async () => {
    const { service, ada, conversation, running, question } = await setUp();

    await expect(service.retry(ada, conversation.sId, running.sId)).rejects.toMatchObject({
      code: 'refused_in_current_state',
    });
    await expect(service.retry(ada, conversation.sId, question.sId)).rejects.toMatchObject({
      code: 'invalid_request_error',
    });
  });
});
