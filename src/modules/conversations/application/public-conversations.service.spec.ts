import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { ConversationEventFeed } from 'src/platform/events/conversation-event-feed';
import { ConversationDetailsLoader } from 'src/modules/conversations/application/conversation-details.loader';
import { ForksService } from 'src/modules/conversations/application/forks.service';
import { MessageViews } from 'src/modules/conversations/application/message-views.loader';
import {
  ANSWERS_WAIT_MS,
  PublicConversationsService,
} from 'src/modules/conversations/application/public-conversations.service';
import {
  NoAnswerActions,
  conversationsContext,
  mentionsOf,
  messageInput,
} from 'test/fakes/conversations-context';
import { FakeEventDoorbell } from 'test/fakes/event-doorbell';

/** Lets the work started so far (reads of the fakes, and what follows them) settle. */
const settle = async () => {
  for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
};

/** Whether a promise has settled yet, without waiting for it. */
function tracked<T>(promise: Promise<T>) {
  const state: { done: boolean; value?: T } = { done: false };
  void promise.then((value) => Object.assign(state, { done: true, value }));
  return state;
}

function setUp() {
  const context = conversationsContext();
  const { directory, conversations, messages } = context;
  const workspace = directory.addWorkspace();
  const ada = directory.addMember(workspace, 'Ada Lovelace');
  const helper = directory.addAgent(workspace, 'helper');
  const reviewer = directory.addAgent(workspace, 'reviewer');
  const doorbell = new FakeEventDoorbell();
  const views = new MessageViews(
    context.messageRepository,
    new NoAnswerActions(),
    directory.workspaces,
    directory.agents,
    context.unitOfWork,
  );
  const details = new ConversationDetailsLoader(
    context.conversationRepository,
    context.messageRepository,
    directory.workspaces,
    directory.spaces,
  );
  const forks = new ForksService(
    conversations,
    messages,
    context.conversationRepository,
    context.messageRepository,
    context.fragmentRepository,
    context.writer,
    context.unitOfWork,
    context.log,
    context.clock,
  );
  const service = new PublicConversationsService(
    conversations,
    messages,
    forks,
    details,
    views,
    context.eventLog,
    new ConversationEventFeed(context.eventLog, doorbell.asDoorbell()),
  );
  /** What the runtime does after a post commits, and the NOTIFY its commit sends. */
  const answer = async (conversationId: number) => {
    await context.startAnswers();
    doorbell.ring(conversationId);
  };
  return { context, ada, helper, reviewer, doorbell, service, answer };
}

describe('PublicConversationsService', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it("answers a creation once its message's answers exist, with the conversation's content", async () => {
    const { ada, helper, reviewer, doorbell, service, answer, context } = setUp();
    const creation = tracked(
      service.create(ada, { title: 'Plans', message: messageInput('Hi', mentionsOf(helper, reviewer)) }),
    );
    await settle();
    expect(creation.done).toBe(false);
    expect(doorbell.subscriptionCount()).toBe(1);

    const {
      items: [conversation],
    } = await context.conversations.list(ada, { limit: 1, beforeId: null });
    await answer(conversation.id);
    await settle();
    expect(creation.done).toBe(true);
    const created = creation.value!;
    const content = created.conversation.content.map(([slot]) => slot);
    expect(content.map((slot) => slot.type)).toEqual(['user_message', 'agent_message', 'agent_message']);
    expect(content.slice(1).map((slot) => 'parentMessageId' in slot && slot.parentMessageId)).toEqual([
      created.message!.sId,
      created.message!.sId,
    ]);
    expect(created.conversation).toMatchObject({ sId: conversation.sId, title: 'Plans' });
    expect(doorbell.subscriptionCount()).toBe(0);
  });

  it('answers a post once its answers exist; a post that mentions no agent at once', async () => {
    const { ada, helper, doorbell, service, answer, context } = setUp();
    const { conversation } = await context.conversations.create(ada, { title: 'Plans' });
    const post = tracked(
      service.postMessage(ada, conversation.sId, messageInput('Hi', mentionsOf(helper)), []),
    );
    await settle();
    expect(post.done).toBe(false);
    await answer(conversation.id);
    await settle();
    expect(post.value).toMatchObject({ type: 'user_message', content: 'Hi' });

    const quiet = await service.postMessage(ada, conversation.sId, messageInput('Thanks'), []);
    expect(quiet.content).toBe('Thanks');
    expect(doorbell.subscriptionCount()).toBe(0);
  });

  it('stops waiting at the bound when the answers do not come', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const { ada, helper, doorbell, service, context } = setUp();
    const { conversation } = await context.conversations.create(ada, { title: 'Plans' });
    const post = tracked(
      service.postMessage(ada, conversation.sId, messageInput('Hi', mentionsOf(helper)), []),
    );
    await settle();
    await jest.advanceTimersByTimeAsync(ANSWERS_WAIT_MS - 1);
    expect(post.done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await settle();
    expect(post.value).toMatchObject({ type: 'user_message', content: 'Hi' });
    expect(doorbell.subscriptionCount()).toBe(0);
  });

  it('gives a conversation read, renamed or forked its content', async () => {
    const { ada, helper, service, answer, context } = setUp();
    const { conversation, message } = await context.conversations.create(ada, {
      title: 'Plans',
      message: messageInput('Hi', mentionsOf(helper)),
    });
    await answer(conversation.id);
    const read = await service.get(ada, conversation.sId);
    expect(read.content.map(([slot]) => slot.type)).toEqual(['user_message', 'agent_message']);
    const renamed = await service.update(ada, conversation.sId, { title: 'Roadmap' });
    expect(renamed).toMatchObject({ title: 'Roadmap', content: read.content });
    const fork = await service.fork(ada, conversation.sId, message!.sId);
    expect(fork.sId).not.toBe(conversation.sId);
    expect(fork.content.map(([slot]) => slot.type)).toEqual(['user_message']);
  });
});
