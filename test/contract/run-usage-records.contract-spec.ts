import { it } from '@jest/globals';
import { generateSId } from 'src/platform/ids/sid';
import { type Stores, describeContract, newConversation } from 'test/contract/stores';
import { expect } from 'test/support/expect';

/** Runs of a new workspace, started now by two agents, with the tokens their calls reported. */
async function runsOf(stores: Stores) {
  const workspaceId = await stores.workspace();
  const userId = await stores.user(workspaceId);
  const conversation = await newConversation(stores, workspaceId);
  const question = await stores.messages.insertUserMessage({
    type: 'user_message',
    sId: generateSId(),
    workspaceId,
    conversationId: conversation.id,
    rank: 0,
    version: 0,
    userId,
    content: 'Hello',
    mentions: [],
    context: {
      username: 'ada',
      timezone: 'UTC',
      origin: 'api',
      fullName: null,
      email: null,
      profilePictureUrl: null,
    },
  });
  const agents = ['beta', 'alpha', 'beta'];
  for (const [i, agentSId] of agents.entries()) {
    const message = await stores.messages.insertAgentMessage({
      type: 'agent_message',
      sId: generateSId(),
      workspaceId,
      conversationId: conversation.id,
      rank: i + 1,
      version: 0,
      parentMessageId: question.id,
      agentSId,
      agentVersion: 1,
      status: 'created',
      content: '',
      error: null,
      completedAt: null,
    });
    const ids = await stores.runs.start('runner', [
      {
        workspaceId,
        conversationId: conversation.id,
        messageId: message.id,
        userId,
        answeredMessageId: question.id,
        agentSId,
        agentVersion: 1,
        modelProviderId: 'openai',
        modelId: 'gpt-4o',
      },
    ]);
    await stores.runs.settleTokens(workspaceId, ids.get(message.id)!, 0, {
      promptTokens: 100 * (i + 1),
      completionTokens: 10,
      reasoningTokens: 1,
    });
    await stores.runs.finish(workspaceId, message.id, 'succeeded');
  }
  return { workspaceId, userId };
}

const around = () => ({ start: new Date(Date.now() - 3_600_000), end: new Date(Date.now() + 3_600_000) });

describeContract('RunUsageRecords', (stores) => {
  it("sums a workspace's runs of the range in one group when asked for none, of zeros when none ran", async () => {
    const { usage, workspace } = stores();
    const { workspaceId } = await runsOf(stores());
    const [all] = await usage.sum(workspaceId, around(), [], 10);
    expect(all).toMatchObject({
      key: {},
      runs: 3,
      messages: 1,
      promptTokens: 600,
      completionTokens: 30,
      reasoningTokens: 3,
    });
    expect(all.durationMs).toBeGreaterThanOrEqual(0);
    const none = {
      key: {},
      runs: 0,
      messages: 0,
      promptTokens: 0,
      completionTokens: 0,
      reasoningTokens: 0,
      durationMs: 0,
    };
    expect(await usage.sum(await workspace(), around(), [], 10)).toEqual([none]);
    const past = { start: new Date('2001-01-01T00:00:00Z'), end: new Date('2001-02-01T00:00:00Z') };
    expect(await usage.sum(workspaceId, past, [], 10)).toEqual([none]);
    expect(await usage.sum(workspaceId, past, ['agent'], 10)).toEqual([]);
  });

  it('groups by agent, user and model, ordered by the groups, at most the limit', async () => {
    const { usage } = stores();
    const { workspaceId, userId } = await runsOf(stores());
    const byAgent = await usage.sum(workspaceId, around(), ['agent', 'user', 'model'], 10);
    expect(byAgent.map(({ key, runs, promptTokens }) => [key, runs, promptTokens])).toEqual([
      [{ agentSId: 'alpha', userId, modelProviderId: 'openai', modelId: 'gpt-4o' }, 1, 200],
      [{ agentSId: 'beta', userId, modelProviderId: 'openai', modelId: 'gpt-4o' }, 2, 400],
    ]);
    expect(await usage.sum(workspaceId, around(), ['agent'], 1)).toHaveLength(1);
    const [today] = await usage.sum(workspaceId, around(), ['day'], 10);
    expect(today.key.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("counts the budget's tokens of the runs started since a time", async () => {
    const { usage } = stores();
    const { workspaceId } = await runsOf(stores());
    expect(await usage.tokensSince(workspaceId, new Date(Date.now() - 3_600_000))).toBe(630);
    expect(await usage.tokensSince(workspaceId, new Date(Date.now() + 3_600_000))).toBe(0);
  });
});
