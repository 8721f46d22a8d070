import { describe, expect, it } from '@jest/globals';
import { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import { mentionsOf, messageInput } from 'test/fakes/conversations-context';
import { runtimeContext } from 'test/fakes/runtime-context';

const STALE_AFTER_MS = 30_000;
const REASON = 'The process running the agent stopped before it finished.';

/** Ada asked the helper; the answer's run belongs to runner A, which then falls silent. */
async function setUp() {
  const context = runtimeContext();
  const { directory, conversations, messages, inProcessEvents } = context;
  const workspace = directory.addWorkspace();
  const ada = directory.addMember(workspace, 'Ada Lovelace');
  const helper = directory.addAgent(workspace, 'helper');
  const { conversation } = await conversations.create(ada, { title: 'Records' });
  await messages.postMessage(ada, conversation.sId, messageInput('Delete r-1', mentionsOf(helper)));
  const [run] = await context.runs.start(inProcessEvents.committedOf(MessagePosted)[0], 'runner-a');
  const waitForApproval = () =>
    context.actions.record(
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
      new Date(context.clock.now().getTime() + 3_600_000),
    );
  const recover = () => context.recovery.recover('runner-b', STALE_AFTER_MS, REASON);
  const message = async () =>
    (await context.messageRepository.findByIds(ada.workspaceId, [run.message.id]))[0];
  return { ...context, ada, helper, conversation, run, waitForApproval, recover, message };
}

describe('RunRecoveryService.recover', () => {
  it('leaves a run alone while its runner is heard within the stale time, on the clock', async () => {
    const { clock, recover, runs, runRepository, message } = await setUp();

    clock.advance(STALE_AFTER_MS - 1);
    await runs.heartbeat('runner-a');
    clock.advance(STALE_AFTER_MS);

    expect(await recover()).toEqual([]);
    expect(runRepository.allRuns()[0]).toMatchObject({ status: 'running', runnerId: 'runner-a' });
    expect(await message()).toMatchObject({ status: 'created' });
  });

  it('takes over a stale run cut mid-answer, to resume it with what it wrote, and fails nothing', async () => {
    const { clock, recover, runRepository, message, agentMessages, run, log } = await setUp();
    await agentMessages.appendTokens(run, 'Deleting');

    clock.advance(STALE_AFTER_MS + 1);
    const [resumed] = await recover();

    expect(resumed).toMatchObject({
      runId: run.runId,
      runnerId: 'runner-b',
      message: { id: run.message.id, status: 'created', content: 'Deleting' },
    });
    expect(await message()).toMatchObject({ status: 'created', content: 'Deleting' });
    expect(runRepository.allRuns()[0]).toMatchObject({ status: 'running', runnerId: 'runner-b' });
    expect(log.messages('info')).toContain('Resumed 1 agent run(s) whose process stopped');
    expect(await recover()).toEqual([]);
  });

  it('takes over at once a run its runner handed over, without waiting for it to go stale', async () => {
    const { recover, runRepository, run, ada } = await setUp();
    await runRepository.handOver(ada.workspaceId, run.message.id, 'runner-x');
    expect(await recover()).toEqual([]);

    await runRepository.handOver(ada.workspaceId, run.message.id, 'runner-a');
    const [resumed] = await recover();

    expect(resumed).toMatchObject({ runId: run.runId, runnerId: 'runner-b' });
    expect(runRepository.allRuns()[0]).toMatchObject({ status: 'running', runnerId: 'runner-b' });
  });

  it('takes over a stale run that waits for approval, as the member it acts for, leaving the call waiting', async () => {
    const { clock, recover, runRepository, waitForApproval, run, ada, message } = await setUp();
    const [call] = await waitForApproval();

    clock.advance(STALE_AFTER_MS + 1);
    const [resumed] = await recover();

    expect(resumed).toMatchObject({
      runId: run.runId,
      message: { id: run.message.id, status: 'created' },
      conversation: { id: run.conversation.id },
      agent: { sId: run.agent.sId },
      caller: { workspaceId: ada.workspaceId, userId: ada.userId },
    });
    expect(runRepository.allRuns()[0]).toMatchObject({ status: 'running', runnerId: 'runner-b' });
    expect(await runRepository.findAction(ada.workspaceId, call.id)).toMatchObject({
      status: 'blocked_validation_required',
    });
    expect(await message()).toMatchObject({ status: 'created' });
    // Taken over, it is alive again: the next sweep leaves it to its new runner.
    expect(await recover()).toEqual([]);
  });

  it('fails a waiting run whose member left, since nobody may act for them any more', async () => {
    const { clock, recover, waitForApproval, directory, ada, message, runRepository } = await setUp();
    await waitForApproval();
    directory.removeMember(ada.workspaceId, ada.userId);

    clock.advance(STALE_AFTER_MS + 1);

    expect(await recover()).toEqual([]);
    expect(await message()).toMatchObject({ status: 'failed', error: { code: 'run_interrupted' } });
    expect(runRepository.allRuns()[0]).toMatchObject({ status: 'failed' });
  });

  it('leaves a stale run to the sweep that took it over first, here or in another process', async () => {
    const { clock, recover, runRepository, message } = await setUp();
    // Another process's sweep takes the run over between this sweep's read and its decision.
    const findStale = runRepository.findStale.bind(runRepository);
    runRepository.findStale = async (staleAfterMs, limit) => {
      const stale = await findStale(staleAfterMs, limit);
      await runRepository.takeOver('runner-c', stale, staleAfterMs);
      return stale;
    };

    clock.advance(STALE_AFTER_MS + 1);

    expect(await recover()).toEqual([]);
    expect(await message()).toMatchObject({ status: 'created' });
    expect(runRepository.allRuns()[0]).toMatchObject({ status: 'running', runnerId: 'runner-c' });
  });
});
