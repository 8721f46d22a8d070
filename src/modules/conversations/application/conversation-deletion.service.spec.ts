import { describe, expect, it, jest } from '@jest/globals';
import {
  AgentMessageCancelled,
  ConversationDeleted,
  MessagePosted,
} from 'src/modules/conversations/application/conversations.events';
import { ConversationDeletionService } from 'src/modules/conversations/application/conversation-deletion.service';
import { conversationsContext, mentionsOf, messageInput } from 'test/fakes/conversations-context';
import type { RecordingInProcessEvents } from 'test/fakes/in-process-events';

/** The in-transaction events besides the posts of the set-up's messages. */
function afterPosts(events: RecordingInProcessEvents) {
  return events.inTransaction.filter(({ name }) => name !== MessagePosted.name);
}

const MINUTE = 60_000;

/** A conversation Ada created, that Grace joined, with an answer of the agent still being generated. */
async function setUp() {
  const context = conversationsContext();
  const { directory, conversations, messages, clock } = context;
  const workspace = directory.addWorkspace();
  const ada = directory.addMember(workspace, 'Ada Lovelace');
  const grace = directory.addMember(workspace, 'Grace Hopper');
  const admin = directory.addMember(workspace, 'Alan Turing', 'admin');
  const helper = directory.addAgent(workspace, 'helper');
  const { conversation } = await conversations.create(ada, { title: 'Plans' });
  clock.advance(MINUTE);
  await messages.postMessage(grace, conversation.sId, messageInput('Status?', mentionsOf(helper)));
  const [run] = await context.startAnswers();
  const service = new ConversationDeletionService(
    conversations,
    context.conversationRepository,
    context.messageRepository,
    context.agentMessages,
    context.accessChanges,
    context.inProcessEvents,
    context.unitOfWork,
  );
  const runningStatus = async () =>
    (await context.messageRepository.findByIds(ada.workspaceId, [run.message.id]))[0];
  return {
    ...context,
    service,
    workspace,
    ada,
    grace,
    admin,
    conversation,
    running: run.message,
    runningStatus,
  };
}

describe('ConversationDeletionService', () => {
  it('lets the creator delete: gone from every read, its running answers cancelled, its streams re-checked', async () => {
    const context = await setUp();
    const {
      service,
      conversations,
      ada,
      grace,
      conversation,
      running,
      eventLog,
      accessChanges,
      inProcessEvents,
    } = context;

    await service.delete(ada, conversation.sId);

    for (const reader of [ada, grace]) {
      await expect(conversations.get(reader, conversation.sId)).rejects.toMatchObject({
        code: 'conversation_not_found',
      });
      expect((await conversations.list(reader, { limit: 10, beforeId: null })).items).toEqual([]);
    }
    expect(await context.runningStatus()).toMatchObject({ status: 'cancelled' });
    expect(eventLog.eventsOf(conversation.id).at(-1)).toMatchObject({
      type: 'agent_generation_cancelled',
      messageId: running.sId,
    });
    expect(accessChanges.announced).toEqual([
      { kind: 'conversation_changed', conversationId: conversation.id },
    ]);
    expect(afterPosts(inProcessEvents)).toEqual([
      {
        name: 'conversation.agent_message_finished',
        payload: {
          workspaceId: ada.workspaceId,
          conversationId: conversation.id,
          message: { id: running.id, sId: running.sId, agentSId: running.agentSId },
          status: 'cancelled',
        },
      },
      {
        name: 'conversation.deleted',
        payload: { workspaceId: ada.workspaceId, conversationId: conversation.id },
      },
    ]);
    expect(inProcessEvents.committedOf(AgentMessageCancelled)).toEqual([{ messageId: running.id }]);
  });

  it("lets an admin delete another member's conversation", async () => {
    const { service, conversationRepository, admin, conversation } = await setUp();

    await service.delete(admin, conversation.sId);

    expect(conversationRepository.row(admin.workspaceId, conversation.id)?.deletedAt).not.toBeNull();
  });

  it('refuses a reader who did not create it (403) and one who cannot read it (404), changing nothing', async () => {
    const context = await setUp();
    const { service, conversations, directory, workspace, ada, grace, conversation } = context;
    const finance = directory.addSpace(workspace, 'Finance', [ada]);
    const { conversation: budget } = await conversations.create(ada, {
      title: 'Budget',
      spaceId: finance.sId,
    });
    const stranger = directory.addMember(directory.addWorkspace('Elsewhere'), 'Eve Stranger');

    await expect(service.delete(grace, conversation.sId)).rejects.toMatchObject({
      code: 'action_not_allowed',
    });
    await expect(service.delete(grace, budget.sId)).rejects.toMatchObject({
      code: 'conversation_not_found',
    });
    await expect(service.delete(stranger, conversation.sId)).rejects.toMatchObject({
      code: 'conversation_not_found',
    });

    expect(await conversations.get(ada, conversation.sId)).toMatchObject({ sId: conversation.sId });
    expect(await conversations.get(ada, budget.sId)).toMatchObject({ sId: budget.sId });
    expect(await context.runningStatus()).toMatchObject({ status: 'created' });
    expect(context.accessChanges.announced).toEqual([]);
    expect(afterPosts(context.inProcessEvents)).toEqual([]);
  });

  it('does nothing more when another deletion committed first', async () => {
    const context = await setUp();
    const { service, conversationRepository, ada, conversation, accessChanges, inProcessEvents } = context;
    const softDelete = conversationRepository.softDelete.bind(conversationRepository);
    // The other deletion lands between this one's read and its write.
    jest.spyOn(conversationRepository, 'softDelete').mockImplementationOnce(async (workspaceId, id) => {
      await softDelete(workspaceId, id);
      return softDelete(workspaceId, id);
    });

    await service.delete(ada, conversation.sId);

    expect(conversationRepository.row(ada.workspaceId, conversation.id)?.deletedAt).not.toBeNull();
    expect(await context.runningStatus()).toMatchObject({ status: 'created' });
    expect(accessChanges.announced).toEqual([]);
    expect(afterPosts(inProcessEvents)).toEqual([]);
  });

  it('undoes the deletion when what another context holds in the conversation cannot go', async () => {
    const context = await setUp();
    const { service, conversations, ada, conversation, inProcessEvents, accessChanges } = context;
    inProcessEvents.on(ConversationDeleted, () => {
      throw new Error('wake-ups unavailable');
    });

    await expect(service.delete(ada, conversation.sId)).rejects.toThrow('wake-ups unavailable');

    expect(await conversations.get(ada, conversation.sId)).toMatchObject({ sId: conversation.sId });
    expect(await context.runningStatus()).toMatchObject({ status: 'created' });
    expect(accessChanges.announced).toEqual([]);
    expect(inProcessEvents.committed.map((event) => event.name)).toEqual(['conversation.message_posted']);
  });
});
