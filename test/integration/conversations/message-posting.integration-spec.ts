import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { WakeUpsService } from 'src/modules/wakeups/application/wakeups.service';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import { workspaceOf } from 'test/integration/members';
import { expect } from 'test/support/expect';
import { type TestModule, createTestModule } from 'test/support/test-app';
import { until } from 'test/support/until';

const context = { username: 'ada', timezone: 'UTC', fullName: null, email: null, profilePictureUrl: null };

describe('posting messages, on the real repositories', () => {
  let module: TestModule;
  let conversations: ConversationsService;
  let messages: MessagesService;

  beforeAll(async () => {
    module = await createTestModule({ env: { LOCAL_MODEL_CHUNK_DELAY_MS: 0 } });
    conversations = module.get(ConversationsService);
    messages = module.get(MessagesService);
  });
  afterAll(() => module.close());

  it('gives each message the next rank, in the order posted, and logs one event each', async () => {
    const { admin } = await workspaceOf(module);
    const { conversation, message } = await conversations.create(admin, {
      title: 'Plans',
      message: { content: 'First', mentions: [], context },
    });
    expect(message).toMatchObject({ content: 'First', rank: 0 });
    for (const content of ['Second', 'Third']) {
      await messages.postMessage(admin, conversation.sId, { content, mentions: [], context });
    }
    const { page } = await messages.listMessages(admin, conversation, { limit: 10, afterRank: -1 });
    expect(page.items.map((item) => [item.rank, 'content' in item && item.content])).toEqual([
      [0, 'First'],
      [1, 'Second'],
      [2, 'Third'],
    ]);
    const logged = await module.get(ConversationEventLog).readAfter(conversation.id, 0n, 100);
    expect(logged.map(({ event }) => event.type)).toEqual([
      'conversation_title',
      'user_message_new',
      'user_message_new',
      'user_message_new',
    ]);
  });

  it('answers the mentioned agent after the post commits, in the slot after the message', async () => {
    const fixture = await workspaceOf(module);
    const agent = await fixture.agent(fixture.admin);
    const { conversation } = await conversations.create(fixture.admin, { title: 'Ask' });
    const posted = await messages.postMessage(fixture.admin, conversation.sId, {
      content: 'Summarise',
      mentions: [{ configurationId: agent.agent.sId }],
      context,
    });
    const listed = async () =>
      (await messages.listMessages(fixture.admin, conversation, { limit: 10, afterRank: -1 })).page.items;
    const answered = await until(listed, (items) =>
      items.some((item) => item.type === 'agent_message' && item.status !== 'created'),
    );
    expect(answered.map((item) => [item.rank, item.type, 'status' in item ? item.status : null])).toEqual([
      [posted.rank, 'user_message', null],
      [posted.rank + 1, 'agent_message', 'succeeded'],
    ]);
  });

  it("refuses another member's post while the owner's wake-up is scheduled, not the owner's", async () => {
    const fixture = await workspaceOf(module);
    const agent = await fixture.agent(fixture.admin);
    const owner = await fixture.member('user');
    const other = await fixture.member('user');
    const { conversation } = await conversations.create(owner, { title: 'Later' });
    await module.get(WakeUpsService).create(owner, conversation.sId, {
      agentConfigurationId: agent.agent.sId,
      scheduleConfig: { type: 'one_shot', fireAt: Date.now() + 3_600_000 },
      reason: 'Check the build',
    });
    await expect(
      messages.postMessage(other, conversation.sId, { content: 'Me too', mentions: [], context }),
    ).rejects.toThrow(/scheduled wake-up of another member/);
    await expect(
      messages.postMessage(owner, conversation.sId, { content: 'Mine', mentions: [], context }),
    ).resolves.toMatchObject({ content: 'Mine' });
  });
});
