import { describe, expect, it } from '@jest/globals';
import { ParticipantsService } from 'src/modules/conversations/application/participants.service';
import { defaultPictureUrl } from 'src/modules/conversations/domain/default-picture';
import { conversationsContext, mentionsOf, messageInput } from 'test/fakes/conversations-context';

const MINUTE = 60_000;

async function setUp() {
  const context = conversationsContext();
  const { directory, conversations, clock } = context;
  const workspace = directory.addWorkspace();
  const ada = directory.addMember(workspace, 'Ada Lovelace');
  const grace = directory.addMember(workspace, 'Grace Hopper');
  const alan = directory.addMember(workspace, 'Alan Turing');
  const helper = directory.addAgent(workspace, 'helper');
  const analyst = directory.addAgent(workspace, 'analyst');
  const { conversation } = await conversations.create(ada, { title: 'Plans' });
  clock.advance(MINUTE);
  const service = new ParticipantsService(
    conversations,
    context.conversationRepository,
    context.messageRepository,
    directory.workspaces,
    directory.agents,
    context.unitOfWork,
  );
  /** A post and the answers of the agents it mentions. */
  const postAndAnswer = async (caller: typeof ada, ...agents: { sId: string }[]) => {
    const posted = await context.messages.postMessage(
      caller,
      conversation.sId,
      messageInput('Any news?', mentionsOf(...agents)),
    );
    for (const run of await context.startAnswers()) await context.succeed(run, 'News.');
    clock.advance(MINUTE);
    return posted;
  };
  return { ...context, service, workspace, ada, grace, alan, helper, analyst, conversation, postAndAnswer };
}

describe('ParticipantsService', () => {
  it('lists who posted, reacted or follows, first comers first, and the agents in the order they answered', async () => {
    const context = await setUp();
    const { service, conversations, messages, clock, ada, grace, alan, helper, analyst, conversation } =
      context;
    const question = await context.postAndAnswer(ada, analyst, helper);
    await messages.react(grace, conversation.sId, question.sId, { emoji: '👍' }, true);
    clock.advance(MINUTE);
    await conversations.update(alan, conversation.sId, { read: true });
    await context.postAndAnswer(alan, helper);

    const participants = await service.list(grace, conversation.sId);

    expect(participants.users).toEqual([
      {
        sId: ada.userSId,
        fullName: 'Ada Lovelace',
        username: 'ada.lovelace',
        email: 'ada.lovelace@example.com',
        pictureUrl: null,
        image: null,
        action: 'posted',
      },
      expect.objectContaining({ sId: grace.userSId, action: 'reacted' }),
      expect.objectContaining({ sId: alan.userSId, action: 'posted' }),
    ]);
    expect(participants.agents).toEqual([
      { configurationId: analyst.sId, name: 'analyst', pictureUrl: analyst.pictureUrl },
      { configurationId: helper.sId, name: 'helper', pictureUrl: helper.pictureUrl },
    ]);
  });

  it('lists a member who only reads the conversation as following it', async () => {
    const { service, conversations, ada, grace, conversation } = await setUp();
    await conversations.update(grace, conversation.sId, { read: true });

    const { users, agents } = await service.list(ada, conversation.sId);

    expect(users.map((user) => [user.sId, user.action])).toEqual([
      [ada.userSId, 'subscribed'],
      [grace.userSId, 'subscribed'],
    ]);
    expect(agents).toEqual([]);
  });

  it('names an agent it cannot describe by its id, with the default picture', async () => {
    const { service, messageRepository, ada, conversation } = await setUp();
    const question = await messageRepository.insertUserMessage({
      type: 'user_message',
      sId: 'question01',
      workspaceId: ada.workspaceId,
      conversationId: conversation.id,
      rank: 0,
      version: 0,
      userId: ada.userId,
      content: 'Hello?',
      mentions: [],
      context: { ...messageInput('Hello?').context, origin: 'api' },
    });
    await messageRepository.insertAgentMessage({
      type: 'agent_message',
      sId: 'answer0001',
      workspaceId: ada.workspaceId,
      conversationId: conversation.id,
      rank: 1,
      version: 0,
      parentMessageId: question.id,
      agentSId: 'vanished01',
      agentVersion: 1,
      status: 'succeeded',
      content: 'Hi.',
      error: null,
      completedAt: null,
    });

    expect((await service.list(ada, conversation.sId)).agents).toEqual([
      { configurationId: 'vanished01', name: 'vanished01', pictureUrl: defaultPictureUrl('vanished01') },
    ]);
  });

  it("answers only the conversation's readers", async () => {
    const { service, conversations, directory, workspace, ada, grace } = await setUp();
    const finance = directory.addSpace(workspace, 'Finance', [ada]);
    const { conversation: budget } = await conversations.create(ada, {
      title: 'Budget',
      spaceId: finance.sId,
    });
    const stranger = directory.addMember(directory.addWorkspace('Elsewhere'), 'Eve Stranger');

    await expect(service.list(grace, budget.sId)).rejects.toMatchObject({
      code: 'conversation_access_restricted',
    });
    await expect(service.list(stranger, budget.sId)).rejects.toMatchObject({
      code: 'conversation_not_found',
    });
    expect((await service.list(ada, budget.sId)).users.map((user) => user.sId)).toEqual([ada.userSId]);
  });
});
