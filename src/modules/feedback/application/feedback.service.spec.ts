import { describe, expect, it } from '@jest/globals';
import { Caller } from 'src/platform/auth/caller';
import { SCOPES } from 'src/platform/auth/scopes';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import {
  type AgentMessage,
  type Conversation,
  ConversationNotFound,
  type ConversationsService,
  type Message,
  MessageNotFound,
  type MessagesService,
  type UserMessage,
} from 'src/modules/conversations/conversations.api';
import { FeedbackService } from 'src/modules/feedback/application/feedback.service';
import { FeedbackRepository } from 'src/modules/feedback/application/ports/feedback.repository';
import type { Feedback, FeedbackEntry } from 'src/modules/feedback/domain/feedback';

const WORKSPACE = 1;
const caller = new Caller(WORKSPACE, 'wsp', 'Workspace', 7, 'usr', 'user', SCOPES, 'key_1');
const conversation = { id: 40, sId: 'conv', workspaceId: WORKSPACE } as Conversation;
const base = { workspaceId: WORKSPACE, conversationId: 40, version: 0, createdAt: new Date(), content: 'x' };
const question: UserMessage = {
  ...base,
  type: 'user_message',
  id: 50,
  sId: 'question',
  rank: 0,
  userId: 7,
  mentions: [],
  context: {
    username: 'ada',
    timezone: 'UTC',
    origin: 'api',
    fullName: null,
    email: null,
    profilePictureUrl: null,
  },
};
const answer: AgentMessage = {
  ...base,
  type: 'agent_message',
  id: 51,
  sId: 'answer',
  rank: 1,
  parentMessageId: 50,
  agentSId: 'assistant',
  agentVersion: 2,
  status: 'succeeded',
  error: null,
  completedAt: new Date(),
};

/** Only what the service uses of the conversations context: access-checked look-ups. */
const conversations = {
  get: async (_caller: Caller, sId: string) => {
    if (sId !== conversation.sId) throw new ConversationNotFound(sId);
    return conversation;
  },
  findMessage: async (_caller: Caller, _conversation: Conversation, sId: string): Promise<Message> => {
    const message = [question, answer].find((candidate) => candidate.sId === sId);
    if (!message) throw new MessageNotFound(sId);
    return message;
  },
} as unknown as ConversationsService;

class InMemoryFeedbacks extends FeedbackRepository {
  readonly rows: Feedback[] = [];

  async upsert(feedback: Feedback): Promise<void> {
    const index = this.rows.findIndex(
      (row) => row.messageId === feedback.messageId && row.userId === feedback.userId,
    );
    if (index === -1) this.rows.push(feedback);
    else this.rows[index] = feedback;
  }
  async remove(workspaceId: number, messageId: number, userId: number): Promise<void> {
    const index = this.rows.findIndex(
      (row) => row.workspaceId === workspaceId && row.messageId === messageId && row.userId === userId,
    );
    if (index !== -1) this.rows.splice(index, 1);
  }
  async listForConversation(workspaceId: number): Promise<FeedbackEntry[]> {
    return this.rows
      .filter((row) => row.workspaceId === workspaceId)
      .map((row, index) => ({
        ...row,
        id: index + 1,
        messageSId: answer.sId,
        agentSId: answer.agentSId,
        agentVersion: answer.agentVersion,
        createdAt: new Date(0),
      }));
  }
}

const setup = () => {
  const feedbacks = new InMemoryFeedbacks();
  return {
    feedbacks,
    service: new FeedbackService(conversations, conversations as unknown as MessagesService, feedbacks),
  };
};

describe('FeedbackService', () => {
  it("gives the caller's feedback on an agent message, then replaces it", async () => {
    const { feedbacks, service } = setup();
    await service.give(caller, 'conv', 'answer', { thumbDirection: 'up', content: 'Good.' });
    await service.give(caller, 'conv', 'answer', { thumbDirection: 'down' });
    expect(feedbacks.rows).toEqual([
      {
        workspaceId: WORKSPACE,
        messageId: answer.id,
        userId: caller.userId,
        thumbDirection: 'down',
        content: '',
        isConversationShared: false,
      },
    ]);
  });

  it('refuses a user message, giving or withdrawing, and writes nothing', async () => {
    const { feedbacks, service } = setup();
    await expect(service.give(caller, 'conv', 'question', { thumbDirection: 'up' })).rejects.toThrow(
      InvalidRequestError,
    );
    await expect(service.withdraw(caller, 'conv', 'question')).rejects.toThrow(/question is a user message/);
    expect(feedbacks.rows).toEqual([]);
  });

  it('answers unknown conversations and messages with their not-found errors', async () => {
    const { feedbacks, service } = setup();
    await expect(service.give(caller, 'other', 'answer', { thumbDirection: 'up' })).rejects.toThrow(
      ConversationNotFound,
    );
    await expect(service.give(caller, 'conv', 'gone', { thumbDirection: 'up' })).rejects.toThrow(
      MessageNotFound,
    );
    await expect(service.list(caller, 'other')).rejects.toThrow(ConversationNotFound);
    expect(feedbacks.rows).toEqual([]);
  });

  it('writes nothing for a refused input', async () => {
    const { feedbacks, service } = setup();
    await expect(
      service.give(caller, 'conv', 'answer', { thumbDirection: 'up', content: 'x'.repeat(4001) }),
    ).rejects.toThrow(/^feedbackContent:/);
    expect(feedbacks.rows).toEqual([]);
  });

  it("withdraws only the caller's feedback, and withdrawing none is not an error", async () => {
    const { feedbacks, service } = setup();
    const other = new Caller(WORKSPACE, 'wsp', 'Workspace', 8, 'usr2', 'user', SCOPES, 'key_2');
    await service.give(caller, 'conv', 'answer', { thumbDirection: 'up' });
    await service.give(other, 'conv', 'answer', { thumbDirection: 'down' });
    await service.withdraw(caller, 'conv', 'answer');
    await service.withdraw(caller, 'conv', 'answer');
    expect(feedbacks.rows.map((row) => row.userId)).toEqual([other.userId]);
    expect((await service.list(caller, 'conv')).map((entry) => entry.thumbDirection)).toEqual(['down']);
  });
});
