import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { createDataSourceOptions } from 'src/app.data-source';
import { expect } from 'test/support/expect';
import { McpTestServer, startMcpTestServer } from 'test/support/mcp-test-server';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp, createTestDatabase } from 'test/support/test-app';
import { until } from 'test/support/until';
import { ApiWorld, ListedMessage, World, WorkspaceFixture, api } from 'test/support/world';
import { DataSource } from 'typeorm';

const MIGRATION = 'RuntimeOwnsRuns';

type AgentMessage = ListedMessage & {
  status: string;
  content: string;
  actions: { id: number; sId: string; status: string }[];
};

/** A process on the database with quick sweeps, so a stale run is found within a second. */
const appOn = (databaseUrl: string) =>
  createTestApp({
    databaseUrl,
    env: {
      RUN_HEARTBEAT_MS: 100,
      RUN_STALE_AFTER_MS: 1_000,
      LOCAL_MODEL_CHUNK_DELAY_MS: 0,
      TOOL_APPROVAL_POLL_MS: 100,
    },
  });

describe('the migration that gives agent runs to the runtime, on a run started before it', () => {
  let database: { url: string; drop(): Promise<void> };
  let mcp: McpTestServer;
  let t: TestApp | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    mcp = await startMcpTestServer();
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    await mcp?.stop();
  });

  it('moves a run waiting for approval, whose process died, to the runtime, where it is resumed and finishes once approved', async () => {
    // The workspace, its tool server (every call needs approval) and the agent, through the API.
    const before = await appOn(database.url);
    const world = new World(before);
    const a: WorkspaceFixture = await world.workspace();
    const wId = a.workspace.sId;
    const space = await world.globalSpace(a.admin);
    const server = await api(before, a.admin)
      .post(paths.toolServers(wId))
      .send({ name: 'vault', url: mcp.url, description: 'Records' })
      .expect(200);
    await api(before, a.admin)
      .post(paths.toolServerViews(wId, space))
      .send({ mcpServerId: server.body.mcpServer.sId, requireApproval: 'always' })
      .expect(200);
    const agent = (
      await world.agent(a.admin, {
        model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
        actions: [{ name: 'vault', mcpServerName: 'vault' }],
      })
    ).sId;
    const content = '/tool vault__delete_record {"id": "r-old"}';
    const { sId: cId } = await world.conversation(a.admin, { message: content });
    await before.close();

    // Back to the schema before the migration (and any that came after it).
    const dataSource = await new DataSource(createDataSourceOptions(database.url)).initialize();
    const [{ n }] = await dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM migrations
       WHERE id >= (SELECT id FROM migrations WHERE name LIKE $1)`,
      [`${MIGRATION}%`],
    );
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i += 1) await dataSource.undoLastMigration();

    // The rows the old schema held for a run whose process died while its call waited for approval:
    // the mention, the agent message with its runner columns, the action, the approver's flag.
    const [user] = await dataSource.query<{ id: number; conversation_id: number; workspace_id: number }[]>(
      "SELECT m.id, m.conversation_id, m.workspace_id FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.s_id = $1 AND m.type = 'user_message'",
      [cId],
    );
    const [{ version }] = await dataSource.query<{ version: number }[]>(
      "SELECT version FROM agent_configurations WHERE s_id = $1 AND status = 'active'",
      [agent],
    );
    await dataSource.query('UPDATE messages SET mentions = $2 WHERE id = $1', [
      user.id,
      JSON.stringify([{ configurationId: agent }]),
    ]);
    const [[{ rank }]] = await dataSource.query<[{ rank: number }[], number]>(
      'UPDATE conversations SET next_rank = next_rank + 1 WHERE id = $1 RETURNING next_rank - 1 AS rank',
      [user.conversation_id],
    );
    const [{ id: messageId }] = await dataSource.query<{ id: number }[]>(
      `INSERT INTO messages (s_id, workspace_id, conversation_id, rank, version, type, content, parent_message_id,
         agent_s_id, agent_version, status, runner_id, runner_heartbeat_at, run_user_id)
       VALUES ('mgrRunOld1', $1, $2, $3, 0, 'agent_message', '', $4, $5, $6, 'created', 'stopped-runner',
         now() - interval '1 hour', $7) RETURNING id`,
      [user.workspace_id, user.conversation_id, rank, user.id, agent, version, a.admin.user.id],
    );
    const [{ id: actionId }] = await dataSource.query<{ id: number }[]>(
      `INSERT INTO agent_message_actions (s_id, workspace_id, conversation_id, message_id, step, tool_call_id,
         function_call_name, mcp_server_name, tool_name, params, status, approval_deadline, approver_id)
       VALUES ('act_mgrOld001', $1, $2, $3, 0, 'call_1', 'vault__delete_record', 'vault', 'delete_record',
         '{"id": "r-old"}', 'blocked_validation_required', now() + interval '1 hour', $4) RETURNING id`,
      [user.workspace_id, user.conversation_id, messageId, a.admin.user.id],
    );
    await dataSource.query(
      'UPDATE conversation_participants SET action_required = true WHERE conversation_id = $1 AND user_id = $2',
      [user.conversation_id, a.admin.user.id],
    );

    await dataSource.runMigrations();

    expect(
      await dataSource.query(
        'SELECT status, runner_id, user_id, conversation_id FROM agent_runs WHERE message_id = $1',
        [messageId],
      ),
    ).toEqual([
      {
        status: 'running',
        runner_id: 'stopped-runner',
        user_id: a.admin.user.id,
        conversation_id: user.conversation_id,
      },
    ]);
    expect(
      await dataSource.query(
        'SELECT a.id, a.s_id, a.status FROM agent_run_actions a JOIN agent_runs r ON r.id = a.run_id WHERE r.message_id = $1',
        [messageId],
      ),
    ).toEqual([{ id: actionId, s_id: 'act_mgrOld001', status: 'blocked_validation_required' }]);
    await dataSource.destroy();

    // A process on the migrated database takes the stale run over, and the approval resumes it.
    t = await appOn(database.url);
    const after = t;
    const waiting = (await new ApiWorld(after).messages(a.admin, cId)).find(
      (message) => message.type === 'agent_message',
    ) as AgentMessage;
    expect(waiting).toMatchObject({
      sId: 'mgrRunOld1',
      status: 'created',
      actions: [{ id: actionId, sId: 'act_mgrOld001', status: 'blocked_validation_required' }],
    });
    await api(after, a.admin)
      .post(`${paths.message(wId, cId, 'mgrRunOld1')}/validate-action`)
      .send({ actionId: 'act_mgrOld001', approved: 'approved' })
      .expect(200);
    const done = await until(
      async () =>
        (await new ApiWorld(after).messages(a.admin, cId)).find(
          (message) => message.type === 'agent_message',
        ) as AgentMessage,
      (message) => message.status !== 'created',
    );
    expect(done).toMatchObject({
      status: 'succeeded',
      content: 'vault__delete_record answered: deleted r-old',
      actions: [{ id: actionId, status: 'succeeded' }],
    });
    expect(mcp.calls.filter((call) => call.args.id === 'r-old')).toHaveLength(1);
    const conversation = await api(after, a.admin).get(paths.conversation(wId, cId)).expect(200);
    expect(conversation.body.conversation.actionRequired).toBe(false);
    expect(
      await after.dataSource.query('SELECT status FROM agent_runs WHERE message_id = $1', [messageId]),
    ).toEqual([{ status: 'succeeded' }]);
    await after.close();
    t = undefined;

    // Reverted, the migration puts the run back where the old schema kept it.
    const reverting = await new DataSource(createDataSourceOptions(database.url)).initialize();
    try {
      for (let i = 0; i < n; i += 1) await reverting.undoLastMigration();
      expect(
        await reverting.query(
          'SELECT id, s_id, message_id, conversation_id, status, approver_id FROM agent_message_actions',
        ),
      ).toEqual([
        {
          id: actionId,
          s_id: 'act_mgrOld001',
          message_id: messageId,
          conversation_id: user.conversation_id,
          status: 'succeeded',
          approver_id: a.admin.user.id,
        },
      ]);
      const [message] = await reverting.query<{ runner_id: string | null; run_user_id: number }[]>(
        'SELECT runner_id, run_user_id FROM messages WHERE id = $1',
        [messageId],
      );
      expect(message.runner_id).not.toBeNull();
      expect(message.runner_id).not.toBe('stopped-runner');
      expect(message.run_user_id).toBe(a.admin.user.id);
    } finally {
      await reverting.destroy();
    }
  });
});
