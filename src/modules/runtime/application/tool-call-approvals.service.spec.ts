import { describe, expect, it } from '@jest/globals';
import { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import { ActionAnswered } from 'src/modules/runtime/application/runtime.events';
import { MemberRemoved } from 'src/modules/identity/application/identity.events';
import {
  APPROVER_LEFT_TEXT,
  DECLINED_TEXT,
} from 'src/modules/runtime/application/tool-call-approvals.service';
import { mentionsOf, messageInput } from 'test/fakes/conversations-context';
import { runtimeContext } from 'test/fakes/runtime-context';

const HOUR = 3_600_000;

/**
 * Ada asked the helper, whose run (acting for her) made one call that waits for her approval;
 * Grace is another member, Alan an admin.
 */
async function setUp() {
  const context = runtimeContext();
  const { directory, conversations, messages, inProcessEvents, clock } = context;
  const workspace = directory.addWorkspace();
  const ada = directory.addMember(workspace, 'Ada Lovelace');
  const grace = directory.addMember(workspace, 'Grace Hopper');
  const alan = directory.addMember(workspace, 'Alan Turing', 'admin');
  const helper = directory.addAgent(workspace, 'helper');
  const { conversation } = await conversations.create(ada, { title: 'Records' });
  await messages.postMessage(ada, conversation.sId, messageInput('Delete r-1', mentionsOf(helper)));
  const [run] = await context.runs.start(inProcessEvents.committedOf(MessagePosted)[0], 'runner-a');
  const deadline = new Date(clock.now().getTime() + HOUR);
  const [call] = await context.actions.record(
    run,
    { step: 0, text: '' },
    [
      {
        toolCallId: 'call_1',
        functionCallName: 'vault__delete_record',
        mcpServerName: 'vault',
        mcpServerId: 'mcp_vault',
        internalMcpServerName: null,
        toolName: 'delete_record',
        params: { id: 'r-1' },
        needsApproval: true,
      },
    ],
    deadline,
  );
  const current = async () => (await context.runRepository.findAction(ada.workspaceId, call.id))!;
  const actionRequired = async () =>
    (await context.conversationRepository.participations(ada.workspaceId, [conversation.id], ada.userId)).get(
      conversation.id,
    )?.actionRequired;
  const answer = (caller = ada, approved: 'approved' | 'rejected' = 'approved', actionSId = call.sId) =>
    context.approvals.validate(caller, conversation.sId, run.message.sId, actionSId, approved);
  return {
    ...context,
    ada,
    grace,
    alan,
    helper,
    conversation,
    run,
    call,
    deadline,
    current,
    actionRequired,
    answer,
  };
}

describe('ToolCallApprovalsService.validate', () => {
  it('runs an approved call: it moves to running, the member no longer has to act, its run is woken', async () => {
    const { answer, current, call, actionRequired, inProcessEvents, run } = await setUp();
    expect(await actionRequired()).toBe(true);

    const view = await answer();

    expect(view).toMatchObject({ sId: call.sId, status: 'running', agentMessageId: run.message.id });
    expect(await current()).toMatchObject({ status: 'running' });
    expect(await actionRequired()).toBe(false);
    expect(inProcessEvents.committedOf(ActionAnswered)).toEqual([{ actionId: call.id }]);
  });

  it('denies a rejected call at once, telling the model and the stream why', async () => {
    const { answer, current, eventLog, conversation, actionRequired } = await setUp();

    const view = await answer(undefined, 'rejected');

    expect(view).toMatchObject({ status: 'denied', output: [{ type: 'text', text: DECLINED_TEXT }] });
    expect(await current()).toMatchObject({ status: 'denied' });
    expect(eventLog.eventsOfType(conversation.id, 'tool_error').at(-1)).toMatchObject({
      error: { code: 'tool_call_denied', message: DECLINED_TEXT },
    });
    expect(await actionRequired()).toBe(false);
  });

  it('lets an admin answer for the member, and refuses another member, changing nothing', async () => {
    const { answer, grace, alan, current, inProcessEvents } = await setUp();

    await expect(answer(grace)).rejects.toMatchObject({ code: 'action_not_allowed' });
    expect(await current()).toMatchObject({ status: 'blocked_validation_required' });
    expect(inProcessEvents.committedOf(ActionAnswered)).toEqual([]);

    await expect(answer(alan)).resolves.toMatchObject({ status: 'running' });
  });

  it('refuses a second answer as a conflict, and an action the message does not have as not found', async () => {
    const { answer, ada } = await setUp();
    await answer();

    await expect(answer(ada, 'rejected')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('it is running'),
    });
    await expect(answer(ada, 'approved', 'act_unknown000')).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('ToolCallApprovalsService.blocked', () => {
  it('lists the calls that wait, with the agent and the time they are declined, until they are answered', async () => {
    const { approvals, ada, grace, conversation, run, call, helper, deadline, answer } = await setUp();

    expect(await approvals.blocked(grace, conversation.sId)).toEqual([
      {
        conversationId: conversation.sId,
        messageId: run.message.sId,
        configurationId: helper.sId,
        actionId: call.sId,
        functionCallName: 'vault__delete_record',
        inputs: { id: 'r-1' },
        metadata: { toolName: 'delete_record', mcpServerName: 'vault', agentName: 'helper' },
        createdAt: call.createdAt.getTime(),
        expiresAt: deadline.getTime(),
        status: 'blocked_validation_required',
      },
    ]);
    await answer();
    expect(await approvals.blocked(ada, conversation.sId)).toEqual([]);
  });
});

describe('ToolCallApprovalsService.declineForRemovedMember', () => {
  it('declines the calls waiting for a member who leaves, with the removal, and wakes their runs after it', async () => {
    const { ada, directory, unitOfWork, inProcessEvents, current, call, actionRequired } = await setUp();

    await unitOfWork.run(async () => {
      await inProcessEvents.emitInTransaction(MemberRemoved, {
        workspaceId: ada.workspaceId,
        user: directory.user(ada.userId),
      });
      expect(inProcessEvents.committedOf(ActionAnswered)).toEqual([]);
    });

    expect(await current()).toMatchObject({
      status: 'denied',
      output: [{ type: 'text', text: APPROVER_LEFT_TEXT }],
    });
    expect(await actionRequired()).toBe(false);
    expect(inProcessEvents.committedOf(ActionAnswered)).toEqual([{ actionId: call.id }]);
  });

  it('undoes the declines when the removal fails', async () => {
    const { ada, directory, unitOfWork, inProcessEvents, current } = await setUp();

    await expect(
      unitOfWork.run(async () => {
        await inProcessEvents.emitInTransaction(MemberRemoved, {
          workspaceId: ada.workspaceId,
          user: directory.user(ada.userId),
        });
        throw new Error('the removal failed');
      }),
    ).rejects.toThrow('the removal failed');

    expect(await current()).toMatchObject({ status: 'blocked_validation_required' });
    expect(inProcessEvents.committedOf(ActionAnswered)).toEqual([]);
  });
});
