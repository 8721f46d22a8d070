import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { AgentRunner } from 'src/modules/runtime/workers/agent-runner.worker';
import { expect } from 'test/support/expect';
import { McpTestServer, startMcpTestServer } from 'test/support/mcp-test-server';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { ApiWorld, KeyHolder, ListedMessage, World, WorkspaceFixture, api } from 'test/support/world';

interface Action {
  sId: string;
  status: string;
  output: { type: string; text: string }[] | null;
}

type AgentMessage = ListedMessage & { status: string; content: string; actions: Action[] };

/** Runs that wait for approval outlive their process, and approvals that nobody gives expire. */
describe('tool calls waiting for approval across processes', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let wId: string;
  let mcp: McpTestServer;
  let agent: string;
  const runs = {
    RUN_HEARTBEAT_MS: 100,
    RUN_STALE_AFTER_MS: 1_000,
    LOCAL_MODEL_CHUNK_DELAY_MS: 0,
    RUN_CONCURRENCY: 8,
  };

  /** Another process on the same database. */
  const sibling = (tools: { TOOL_APPROVAL_TIMEOUT_MS?: number; RUN_DRAIN_MS?: number } = {}) =>
    createTestApp({
      databaseUrl: t.config.databaseUrl!,
      env: { ...runs, TOOL_APPROVAL_POLL_MS: 100, ...tools },
    });

  const agentMessage = async (target: TestApp, actor: KeyHolder, cId: string) =>
    (await new ApiWorld(target).messages(actor, cId)).find((m) => m.type === 'agent_message') as
      AgentMessage | undefined;

  async function blockedOn(target: TestApp, content: string) {
    const conversation = await new ApiWorld(target).conversation(a.admin, {
      message: content,
      mentions: [agent],
    });
    const message = await until(
      () => agentMessage(target, a.admin, conversation.sId),
      (found) => found?.actions?.[0]?.status === 'blocked_validation_required',
    );
    return { cId: conversation.sId, mId: message!.sId, actionId: message!.actions[0].sId };
  }

  const approve = (target: TestApp, cId: string, mId: string, actionId: string) =>
    api(target, a.admin)
      .post(`${paths.message(wId, cId, mId)}/validate-action`)
      .send({ actionId, approved: 'approved' })
      .expect(200);

  beforeAll(async () => {
    mcp = await startMcpTestServer({ idempotentLookup: true });
    t = await createTestApp({ env: { ...runs, TOOL_APPROVAL_POLL_MS: 100 } });
    world = new World(t);
    a = await world.workspace();
    wId = a.workspace.sId;
    const space = await world.globalSpace(a.admin);
    const server = await api(t, a.admin)
      .post(paths.toolServers(wId))
      .send({ name: 'vault', url: mcp.url, description: 'Records' })
      .expect(200);
    await api(t, a.admin)
      .post(paths.toolServerViews(wId, space))
      .send({ mcpServerId: server.body.mcpServer.sId, requireApproval: 'always' })
      .expect(200);
    agent = (
      await world.agent(a.admin, {
        model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
        actions: [{ name: 'vault', mcpServerName: 'vault' }],
      })
    ).sId;
  });
  afterAll(async () => {
    await t.close();
    await mcp.stop();
  });

  it('resumes on another process a run whose process stopped while it waited, and runs the call once approved', async () => {
    // A stop does not wait out its drain for a run that waits for an answer.
    const other = await sibling({ RUN_DRAIN_MS: 600_000 });
    const { cId, mId, actionId } = await blockedOn(other, '/tool vault__delete_record {"id": "r-restart"}');
    await other.close();
    // The stopped process left the run waiting, not failed.
    const left = await agentMessage(t, a.admin, cId);
    expect(left).toMatchObject({
      status: 'created',
      actions: [expect.objectContaining({ status: 'blocked_validation_required' })],
    });
    const conversation = await api(t, a.admin).get(paths.conversation(wId, cId)).expect(200);
    expect(conversation.body.conversation.actionRequired).toBe(true);

    // Once the run is stale, this process takes it over; the answer given here resumes it.
    await until(
      async () =>
        (
          await t.dataSource.query<{ runner_id: string }[]>(
            'SELECT r.runner_id FROM agent_runs r JOIN messages m ON m.id = r.message_id WHERE m.s_id = $1',
            [mId],
          )
        )[0].runner_id,
      (runner) => runner === t.app.get(AgentRunner).runnerId,
    );
    await approve(t, cId, mId, actionId);
    const done = await until(
      () => agentMessage(t, a.admin, cId),
      (message) => message?.status !== 'created',
    );
    expect(done).toMatchObject({
      status: 'succeeded',
      content: 'vault__delete_record answered: deleted r-restart',
      actions: [expect.objectContaining({ status: 'succeeded' })],
    });
    expect(mcp.calls.filter((call) => call.args.id === 'r-restart')).toHaveLength(1);
  });

  it('runs a call approved while no process held its run, once the run is resumed', async () => {
    const other = await sibling();
    const { cId, mId, actionId } = await blockedOn(other, '/tool vault__delete_record {"id": "r-gap"}');
    await other.close();
    await approve(t, cId, mId, actionId);
    const done = await until(
      () => agentMessage(t, a.admin, cId),
      (message) => message?.status !== 'created',
    );
    expect(done).toMatchObject({
      status: 'succeeded',
      actions: [expect.objectContaining({ status: 'succeeded' })],
    });
    expect(mcp.calls.filter((call) => call.args.id === 'r-gap')).toHaveLength(1);
  });

  it('declines a call nobody answers in time, and the run goes on', async () => {
    const hurried = await sibling({ TOOL_APPROVAL_TIMEOUT_MS: 400 });
    try {
      const conversation = await new ApiWorld(hurried).conversation(a.admin, {
        message: '/tool vault__delete_record {"id": "r-late"}',
        mentions: [agent],
      });
      const done = await until(
        () => agentMessage(hurried, a.admin, conversation.sId),
        (message) => message !== undefined && message.status !== 'created',
      );
      expect(done!.status).toBe('succeeded');
      expect(done!.actions[0].status).toBe('denied');
      expect(done!.actions[0].output![0].text).toContain('Nobody approved this tool call in time');
      expect(done!.content).toContain('Nobody approved this tool call in time');
      expect(mcp.calls.some((call) => call.args.id === 'r-late')).toBe(false);
      const conversationView = await api(t, a.admin)
        .get(paths.conversation(wId, conversation.sId))
        .expect(200);
      expect(conversationView.body.conversation.actionRequired).toBe(false);
    } finally {
      await hurried.close();
    }
  });

  describe('a call cut while it ran, when its process stops', () => {
    let ledgerAgent: string;

    beforeAll(async () => {
      const space = await world.globalSpace(a.admin);
      const server = await api(t, a.admin)
        .post(paths.toolServers(wId))
        .send({ name: 'ledger', url: mcp.url, description: 'Lookups and writes' })
        .expect(200);
      await api(t, a.admin)
        .post(paths.toolServerViews(wId, space))
        .send({ mcpServerId: server.body.mcpServer.sId })
        .expect(200);
      ledgerAgent = (
        await world.agent(a.admin, {
          model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
          actions: [{ name: 'ledger', mcpServerName: 'ledger' }],
        })
      ).sId;
    });

    /** Asks on a process that stops while the call runs; answers the message once another ended it. */
    async function cutWhileRunning(content: string) {
      const stopping = await sibling();
      const conversation = await new ApiWorld(stopping).conversation(a.admin, {
        message: content,
        mentions: [ledgerAgent],
      });
      await until(
        () => agentMessage(stopping, a.admin, conversation.sId),
        (found) => found?.actions?.[0]?.status === 'running',
      );
      await stopping.close();
      return until(
        () => agentMessage(t, a.admin, conversation.sId),
        (message) => message !== undefined && message.status !== 'created',
        20_000,
      );
    }

    it('does not call a tool not declared safe to repeat again: the model is told it may have taken effect', async () => {
      const done = await cutWhileRunning('/tool ledger__slow {"ms": 60000}');
      expect(done).toMatchObject({
        status: 'succeeded',
        actions: [expect.objectContaining({ status: 'failed' })],
      });
      expect(done!.actions[0].output![0].text).toContain('may or may not have taken effect');
      expect(done!.content).toContain('may or may not have taken effect');
      expect(mcp.calls.filter((call) => call.name === 'slow' && call.args.ms === 60000)).toHaveLength(1);
    });

    it('calls an idempotent tool again, and the answer uses what it gave', async () => {
      const done = await cutWhileRunning('/tool ledger__slow_lookup {"ms": 5000, "key": "k-restart"}');
      expect(done).toMatchObject({
        status: 'succeeded',
        content: 'ledger__slow_lookup answered: found k-restart',
        actions: [expect.objectContaining({ status: 'succeeded' })],
      });
      expect(mcp.calls.filter((call) => call.args.key === 'k-restart')).toHaveLength(2);
    });
  });
});
