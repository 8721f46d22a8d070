import { describe, expect, it } from '@jest/globals';
import { ConversationDeleted } from 'src/modules/conversations/application/conversations.events';
import { firingScene as setUp } from 'test/fakes/wakeup-scenes';

const MINUTE = 60_000;

describe('WakeUpFiringService, when a wake-up may no longer fire', () => {
  it('cancels, without a message, a wake-up whose agent was archived or whose owner lost access', async () => {
    const context = await setUp();
    const {
      firing,
      clock,
      inMinutes,
      newConversation,
      posted,
      wakeUp,
      statusEvents,
      directory,
      workspace,
      owner,
    } = context;
    const finance = directory.addSpace(workspace, 'Finance', [owner]);
    const restricted = (await context.conversations.create(owner, { spaceId: finance.sId })).conversation;
    const archivedAgent = await inMinutes(1);
    const noAccess = await inMinutes(1, { in: restricted });
    const elsewhere = await newConversation();
    const kept = await inMinutes(1, { in: elsewhere, agentSId: directory.addAgent(workspace, 'other').sId });
    directory.updateAgent(context.agent, { status: 'archived' });
    directory.leaveSpace(finance, owner);
    clock.advance(MINUTE);

    expect(await firing.fireDueBatch()).toBe(3);

    expect(wakeUp(archivedAgent.wakeUp.sId)).toMatchObject({ status: 'cancelled', nextFireAt: null });
    expect(wakeUp(noAccess.wakeUp.sId)).toMatchObject({ status: 'cancelled', nextFireAt: null });
    // The refusals are the other wake-ups' own: this one fires in the same batch.
    expect(wakeUp(kept.wakeUp.sId)).toMatchObject({ status: 'fired' });
    expect(posted(elsewhere.id)).toHaveLength(1);
    expect(posted()).toEqual([]);
    expect(posted(restricted.id)).toEqual([]);
    // The owner still reads the first conversation: the cancellation is announced there.
    expect(statusEvents()).toEqual(['scheduled', 'cancelled']);
    expect(statusEvents(restricted.id)).toEqual(['scheduled']);
  });

  it('cancels, without a message, a wake-up whose owner left the workspace', async () => {
    const { firing, clock, inMinutes, posted, wakeUp, statusEvents, directory, workspace, owner } =
      await setUp();
    const { wakeUp: created } = await inMinutes(1);
    directory.removeMember(workspace.id, owner.userId);
    clock.advance(MINUTE);

    expect(await firing.fireDueBatch()).toBe(1);

    expect(wakeUp(created.sId)).toMatchObject({ status: 'cancelled', nextFireAt: null });
    expect(posted()).toEqual([]);
    expect(statusEvents()).toEqual(['scheduled']);
  });

  it('never fires the wake-up of a deleted conversation', async () => {
    const {
      firing,
      clock,
      inMinutes,
      posted,
      wakeUp,
      conversation,
      owner,
      unitOfWork,
      inProcessEvents,
      conversationRepository,
    } = await setUp();
    const { wakeUp: created } = await inMinutes(1);
    await unitOfWork.run(async () => {
      await conversationRepository.softDelete(owner.workspaceId, conversation.id);
      await inProcessEvents.emitInTransaction(ConversationDeleted, {
        workspaceId: owner.workspaceId,
        conversationId: conversation.id,
      });
    });
    clock.advance(MINUTE);

    expect(await firing.fireDueBatch()).toBe(0);
    expect(wakeUp(created.sId).status).toBe('cancelled');
    expect(posted()).toEqual([]);
  });
});
