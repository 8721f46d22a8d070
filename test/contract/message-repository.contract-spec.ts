import { it } from '@jest/globals';
import type {
  NewAgentMessage,
  NewUserMessage,
} from 'src/modules/conversations/application/ports/message.repository';
import { generateSId } from 'src/platform/ids/sid';
import { type Stores, describeContract, newConversation } from 'test/contract/stores';
import { expect } from 'test/support/expect';

/** A workspace, a member and a conversation of it: what every message needs first. */
async function conversationOf(stores: Stores) {
  const workspaceId = await stores.workspace();
  const userId = await stores.user(workspaceId);
  const conversation = await newConversation(stores, workspaceId);
  const userMessage = (rank: number, changes: Partial<NewUserMessage> = {}): NewUserMessage => ({
    type: 'user_message',
    sId: generateSId(),
    workspaceId,
    conversationId: conversation.id,
    rank,
    version: 0,
    userId,
    content: `message at ${rank}`,
    mentions: [{ configurationId: 'helper' }],
    context: {
      username: 'ada',
      timezone: 'UTC',
      origin: 'api',
      fullName: null,
      email: null,
      profilePictureUrl: null,
    },
    ...changes,
  });
  const agentMessage = (
    rank: number,
    parentMessageId: number,
    changes: Partial<NewAgentMessage> = {},
  ): NewAgentMessage => ({
    type: 'agent_message',
    sId: generateSId(),
    workspaceId,
    conversationId: conversation.id,
    rank,
    version: 0,
    parentMessageId,
    agentSId: 'helper',
    agentVersion: 1,
    status: 'created',
    content: '',
    error: null,
    completedAt: null,
    ...changes,
  });
  return { workspaceId, userId, conversation, userMessage, agentMessage };
}

describeContract('MessageRepository', (stores) => {
  it('finds a message by sId in its conversation and workspace only', async () => {
    const { messages, workspace } = stores();
    const { workspaceId, conversation, userMessage } = await conversationOf(stores());
    const saved = await messages.insertUserMessage(userMessage(0));
    expect(saved).toMatchObject({ type: 'user_message', rank: 0, content: 'message at 0' });
    expect(saved.createdAt).toBeInstanceOf(Date);
    expect(await messages.findBySId(workspaceId, conversation.id, saved.sId)).toEqual(saved);
    expect(await messages.findBySId(await workspace(), conversation.id, saved.sId)).toBeNull();
    expect(await messages.findBySId(workspaceId, conversation.id, generateSId())).toBeNull();
    expect(await messages.findByIds(await workspace(), [saved.id])).toEqual([]);
  });

  it('holds one message per rank and version, and one per sId in a workspace', async () => {
    const { messages } = stores();
    const { userMessage } = await conversationOf(stores());
    const first = await messages.insertUserMessage(userMessage(0));
    await expect(messages.insertUserMessage(userMessage(0))).rejects.toThrow();
    await expect(messages.insertUserMessage(userMessage(1, { sId: first.sId }))).rejects.toThrow();
    await expect(messages.insertUserMessage(userMessage(0, { version: 1 }))).resolves.toMatchObject({
      version: 1,
    });
  });

  it('inserts several in the order given', async () => {
    const { messages } = stores();
    const { userMessage } = await conversationOf(stores());
    const saved = await messages.insertUserMessages([userMessage(0), userMessage(1)]);
    expect(saved.map((m) => m.rank)).toEqual([0, 1]);
    expect(saved[0].id).toBeLessThan(saved[1].id);
  });

  it('reads the latest version of each rank, in rank order, page by page', async () => {
    const { messages } = stores();
    const { workspaceId, conversation, userMessage } = await conversationOf(stores());
    await messages.insertUserMessages([userMessage(0), userMessage(1), userMessage(2)]);
    await messages.insertUserMessage(userMessage(1, { version: 1, content: 'edited' }));
    expect(await messages.latestVersionAt(workspaceId, conversation.id, 1)).toBe(1);
    expect(await messages.latestVersionAt(workspaceId, conversation.id, 7)).toBe(-1);
    expect(await messages.findLatestAt(workspaceId, conversation.id, 1)).toMatchObject({ content: 'edited' });
    expect(await messages.findLatestAt(workspaceId, conversation.id, 7)).toBeNull();

    const page = await messages.listLatest(workspaceId, conversation.id, -1, 2);
    expect(page.messages.map((m) => [m.rank, m.content])).toEqual([
      [0, 'message at 0'],
      [1, 'edited'],
    ]);
    const next = await messages.listLatest(workspaceId, conversation.id, 1, 2);
    expect(next.messages.map((m) => m.rank)).toEqual([2]);
    const upTo = await messages.listLatestUpTo(workspaceId, conversation.id, 1);
    expect(upTo.map((m) => m.content)).toEqual(['message at 0', 'edited']);
  });

  it("reads the answers to a rank's versions, the running ones and the agents that answered", async () => {
    const { messages } = stores();
    const { workspaceId, conversation, userMessage, agentMessage } = await conversationOf(stores());
    const question = await messages.insertUserMessage(userMessage(0));
    const answer = await messages.insertAgentMessage(agentMessage(1, question.id, { agentSId: 'second' }));
    await messages.insertAgentMessage(agentMessage(2, question.id, { agentSId: 'first' }));
    await messages.insertAgentMessage(agentMessage(3, question.id, { agentSId: 'second' }));
    expect(answer).toMatchObject({ type: 'agent_message', status: 'created', parentMessageId: question.id });

    const answers = await messages.answersTo(workspaceId, conversation.id, 0);
    expect(answers.map((m) => m.rank)).toEqual([1, 2, 3]);
    expect(await messages.agentsOf(workspaceId, conversation.id)).toEqual(['second', 'first']);
    await messages.complete(workspaceId, answer.id, { status: 'succeeded', content: 'done', error: null });
    expect((await messages.listRunning(workspaceId, conversation.id)).map((m) => m.rank)).toEqual([2, 3]);
  });

  it('appends to running messages only (one entry per message), and completes a message once', async () => {
    const { messages } = stores();
    const { workspaceId, conversation, userMessage, agentMessage } = await conversationOf(stores());
    const question = await messages.insertUserMessage(userMessage(0));
    const running = await messages.insertAgentMessage(agentMessage(1, question.id));
    const done = await messages.insertAgentMessage(agentMessage(2, question.id));
    expect(
      await messages.complete(workspaceId, done.id, { status: 'cancelled', content: '', error: null }),
    ).toBe(true);
    expect(
      await messages.complete(workspaceId, done.id, { status: 'succeeded', content: 'late', error: null }),
    ).toBe(false);

    const appended = await messages.appendContent([
      { workspaceId, messageId: running.id, text: 'Hel' },
      { workspaceId, messageId: done.id, text: 'lost' },
    ]);
    expect([...appended]).toEqual([running.id]);
    await messages.appendContent([{ workspaceId, messageId: running.id, text: 'lo' }]);
    expect(await messages.findBySId(workspaceId, conversation.id, running.sId)).toMatchObject({
      content: 'Hello',
    });
    const failed = { code: 'model_error', message: 'The model failed.' };
    expect(
      await messages.complete(workspaceId, running.id, { status: 'failed', content: 'Hello', error: failed }),
    ).toBe(true);
    const completed = await messages.findBySId(workspaceId, conversation.id, running.sId);
    expect(completed).toMatchObject({ status: 'failed', error: failed });
    expect(completed?.type === 'agent_message' && completed.completedAt).toBeInstanceOf(Date);
    expect(await messages.findBySId(workspaceId, conversation.id, done.sId)).toMatchObject({
      status: 'cancelled',
    });
  });

  it('holds one reaction per member and emoji, oldest first, scoped by workspace', async () => {
    const { messages, workspace, user } = stores();
    const { workspaceId, userId, userMessage } = await conversationOf(stores());
    const bob = await user(workspaceId);
    const message = await messages.insertUserMessage(userMessage(0));
    await messages.addReaction(workspaceId, { messageId: message.id, userId, emoji: 'tada' });
    await messages.addReaction(workspaceId, { messageId: message.id, userId, emoji: 'tada' });
    await messages.addReaction(workspaceId, { messageId: message.id, userId: bob, emoji: 'tada' });
    await messages.addReaction(workspaceId, { messageId: message.id, userId, emoji: 'eyes' });
    expect(await messages.reactionsOf(workspaceId, [message.id])).toEqual([
      { messageId: message.id, userId, emoji: 'tada' },
      { messageId: message.id, userId: bob, emoji: 'tada' },
      { messageId: message.id, userId, emoji: 'eyes' },
    ]);
    expect((await messages.emojisOn(workspaceId, message.id)).sort()).toEqual(['eyes', 'tada']);
    expect(await messages.reactionsOf(await workspace(), [message.id])).toEqual([]);

    await messages.removeReaction(workspaceId, { messageId: message.id, userId, emoji: 'tada' });
    expect(await messages.reactionsOf(workspaceId, [message.id])).toEqual([
      { messageId: message.id, userId: bob, emoji: 'tada' },
      { messageId: message.id, userId, emoji: 'eyes' },
    ]);
    const page = await messages.listLatest(workspaceId, message.conversationId, -1, 10);
    expect(page.reactions).toHaveLength(2);
  });
});
