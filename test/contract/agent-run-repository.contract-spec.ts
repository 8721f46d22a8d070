import { it } from '@jest/globals';
import type { RunStart } from 'src/modules/runtime/application/ports/agent-run.repository';
import type { NewRunAction } from 'src/modules/runtime/domain/run-action';
import { generateSId } from 'src/platform/ids/sid';
import { type Stores, describeContract, newConversation } from 'test/contract/stores';
import { expect } from 'test/support/expect';

/** A conversation where a member asked and agents answer: the agent messages runs generate. */
async function askedIn(stores: Stores) {
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
    content: 'Summarise the thread',
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
  let rank = 0;
  /** A new agent message answering the question, and the run that would generate it. */
  const answer = async (agentSId = 'helper'): Promise<RunStart> => {
    const message = await stores.messages.insertAgentMessage({
      type: 'agent_message',
      sId: generateSId(),
      workspaceId,
      conversationId: conversation.id,
      rank: ++rank,
      version: 0,
      parentMessageId: question.id,
      agentSId,
      agentVersion: 1,
      status: 'created',
      content: '',
      error: null,
      completedAt: null,
    });
    return {
      workspaceId,
      conversationId: conversation.id,
      messageId: message.id,
      userId,
      answeredMessageId: question.id,
      agentSId,
      agentVersion: 1,
      modelProviderId: 'openai',
      modelId: 'gpt-4o',
    };
  };
  const call = (runId: number, changes: Partial<NewRunAction> = {}): NewRunAction => ({
    sId: generateSId(),
    workspaceId,
    runId,
    step: 0,
    toolCallId: generateSId(),
    functionCallName: 'search',
    mcpServerName: 'search',
    mcpServerId: null,
    internalMcpServerName: 'search',
    toolName: 'search',
    params: { query: 'plans' },
    status: 'running',
    output: null,
    approvalDeadline: null,
    approverId: null,
    ...changes,
  });
  return { workspaceId, userId, conversation, answer, call };
}

const RUNNER = 'runner-a';

describeContract('AgentRunRepository', (stores) => {
  it("records runs as a runner's, found by agent message in their workspace only", async () => {
    const { runs, workspace } = stores();
    const { workspaceId, userId, answer } = await askedIn(stores());
    const [first, second] = [await answer(), await answer()];
    const ids = await runs.start(RUNNER, [first, second]);
    expect([...ids.keys()]).toEqual([first.messageId, second.messageId]);

    const run = await runs.findByMessage(workspaceId, first.messageId);
    expect(run).toMatchObject({
      id: ids.get(first.messageId),
      workspaceId,
      messageId: first.messageId,
      userId,
      status: 'running',
      runnerId: RUNNER,
      actions: [],
    });
    expect(run?.heartbeatAt).toBeInstanceOf(Date);
    expect(await runs.findByMessage(await workspace(), first.messageId)).toBeNull();
    expect(await runs.findByMessage(workspaceId, first.messageId + 1000)).toBeNull();
  });

  it('gives a running run to the runner that starts it again, and no ended one', async () => {
    const { runs } = stores();
    const { workspaceId, answer } = await askedIn(stores());
    const [running, ended] = [await answer(), await answer()];
    const first = await runs.start(RUNNER, [running, ended]);
    expect(await runs.finish(workspaceId, ended.messageId, 'succeeded')).toBe(false);
    const again = await runs.start('runner-b', [running, ended]);
    expect([...again]).toEqual([[running.messageId, first.get(running.messageId)]]);
    expect((await runs.findByMessage(workspaceId, running.messageId))?.runnerId).toBe('runner-b');
    expect(await runs.findByMessage(workspaceId, ended.messageId)).toMatchObject({
      status: 'succeeded',
      runnerId: RUNNER,
    });
  });

  it('ends a run once, answering whether its calls still hold tokens', async () => {
    const { runs } = stores();
    const { workspaceId, answer } = await askedIn(stores());
    const start = await answer();
    const runId = (await runs.start(RUNNER, [start])).get(start.messageId)!;
    expect(await runs.reserveTokens(workspaceId, runId, 600, 1_000)).toBe(true);
    expect(await runs.reserveTokens(workspaceId, runId, 600, 1_000)).toBe(false);
    expect(await runs.finish(workspaceId, start.messageId, 'failed')).toBe(true);
    expect(await runs.finish(workspaceId, start.messageId, 'succeeded')).toBe(false);
    expect((await runs.findByMessage(workspaceId, start.messageId))?.status).toBe('failed');
    expect(await runs.reserveTokens(workspaceId, runId, 1, 1_000)).toBe(false);
  });

  it("counts the month's used and held tokens against its budget, across the workspace's runs", async () => {
    const { runs } = stores();
    const { workspaceId, answer } = await askedIn(stores());
    const [one, two] = [await answer(), await answer()];
    const ids = await runs.start(RUNNER, [one, two]);
    const [first, second] = [ids.get(one.messageId)!, ids.get(two.messageId)!];
    expect(await runs.reserveTokens(workspaceId, first, 500, 1_000)).toBe(true);
    expect(await runs.reserveTokens(workspaceId, second, 600, 1_000)).toBe(false);
    await runs.settleTokens(workspaceId, first, 500, {
      promptTokens: 300,
      completionTokens: 100,
      reasoningTokens: 0,
    });
    expect(await runs.reserveTokens(workspaceId, second, 600, 1_000)).toBe(true);
    expect(await runs.reserveTokens(workspaceId, first, 1, 1_000)).toBe(false);
    expect(await runs.finish(workspaceId, two.messageId, 'cancelled')).toBe(true);
    await runs.releaseHolds(workspaceId, two.messageId);
    expect(await runs.reserveTokens(workspaceId, first, 600, 1_000)).toBe(true);
  });

  it('keeps the text of a step, and hands a run over to be taken over as stale at once', async () => {
    const { runs } = stores();
    const { workspaceId, answer, call } = await askedIn(stores());
    const start = await answer();
    const runId = (await runs.start(RUNNER, [start])).get(start.messageId)!;
    await runs.insertActions([call(runId)]);
    await runs.recordStepText(workspaceId, runId, 0, 'Let me search.');
    await runs.heartbeat(RUNNER);
    expect((await runs.findStale(60_000, 1_000)).map((run) => run.id)).not.toContain(runId);

    await runs.handOver(workspaceId, start.messageId, 'someone-else');
    expect((await runs.findByMessage(workspaceId, start.messageId))?.runnerId).toBe(RUNNER);
    await runs.handOver(workspaceId, start.messageId, RUNNER);
    const stale = (await runs.findStale(60_000, 1_000)).filter((run) => run.id === runId);
    expect(stale).toHaveLength(1);
    expect(stale[0].resumePoint('Let me search. And')).toEqual({
      stepTexts: ['Let me search.'],
      cutText: ' And',
    });

    expect([...(await runs.takeOver('runner-b', stale, 60_000))]).toEqual([runId]);
    expect([...(await runs.takeOver('runner-c', stale, 60_000))]).toEqual([]);
    expect((await runs.findByMessage(workspaceId, start.messageId))?.runnerId).toBe('runner-b');
  });

  it('lists the calls of runs in call order, each in its workspace', async () => {
    const { runs, workspace } = stores();
    const { workspaceId, answer, call } = await askedIn(stores());
    const [one, two] = [await answer(), await answer()];
    const ids = await runs.start(RUNNER, [one, two]);
    const [first, second] = [ids.get(one.messageId)!, ids.get(two.messageId)!];
    const inserted = await runs.insertActions([call(second), call(first), call(first, { step: 1 })]);
    expect(inserted.map((a) => [a.runId, a.messageId])).toEqual([
      [second, two.messageId],
      [first, one.messageId],
      [first, one.messageId],
    ]);
    expect(inserted[0]).toMatchObject({ status: 'running', executionDurationMs: null });

    const listed = await runs.listActionsOfMessages(workspaceId, [two.messageId, one.messageId]);
    expect(listed.map((a) => a.id)).toEqual([inserted[1].id, inserted[2].id, inserted[0].id]);
    expect(await runs.findAction(workspaceId, inserted[0].id)).toEqual(inserted[0]);
    expect(await runs.findActionBySId(workspaceId, inserted[0].sId)).toEqual(inserted[0]);
    expect(await runs.findAction(await workspace(), inserted[0].id)).toBeNull();
    expect(await runs.findActionBySId(workspaceId, generateSId())).toBeNull();
    expect((await runs.findByMessage(workspaceId, one.messageId))?.actions.map((a) => a.id)).toEqual([
      inserted[1].id,
      inserted[2].id,
    ]);
  });

  it('lists the calls waiting for approval, and moves a call only from the status it expects', async () => {
    const { runs } = stores();
    const { workspaceId, userId, conversation, answer, call } = await askedIn(stores());
    const start = await answer();
    const runId = (await runs.start(RUNNER, [start])).get(start.messageId)!;
    const deadline = new Date(Date.now() + 3_600_000);
    const [waiting, running] = await runs.insertActions([
      call(runId, { status: 'blocked_validation_required', approvalDeadline: deadline, approverId: userId }),
      call(runId),
    ]);
    expect((await runs.listBlocked(workspaceId, conversation.id)).map((a) => a.id)).toEqual([waiting.id]);
    expect((await runs.listAwaitingApprover(workspaceId, userId)).map((a) => a.id)).toEqual([waiting.id]);
    expect(await runs.awaitsApprover(workspaceId, conversation.id, userId)).toBe(true);

    expect(
      await runs.transitionAction(workspaceId, waiting.id, 'blocked_validation_required', 'running'),
    ).toBe(true);
    expect(
      await runs.transitionAction(workspaceId, waiting.id, 'blocked_validation_required', 'denied'),
    ).toBe(false);
    expect(await runs.awaitsApprover(workspaceId, conversation.id, userId)).toBe(false);
    expect((await runs.findAction(workspaceId, waiting.id))?.approvalDeadline).toEqual(deadline);
    await runs.markActionStarted(workspaceId, waiting.id);
    expect((await runs.findAction(workspaceId, waiting.id))?.approvalDeadline).toBeNull();

    const outcome = {
      status: 'succeeded' as const,
      output: [{ type: 'text' as const, text: 'found' }],
      executionDurationMs: 12,
    };
    expect(await runs.settleAction(workspaceId, running.id, 'running', outcome)).toBe(true);
    expect(
      await runs.settleAction(workspaceId, running.id, 'running', { ...outcome, status: 'failed' }),
    ).toBe(false);
    expect(await runs.findAction(workspaceId, running.id)).toMatchObject(outcome);
  });
});
