import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { rm } from 'node:fs/promises';
import { Client } from 'pg';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { Bootstrapped, bootstrapWorkspace, useServedApiDocument } from 'test/support/service-api';
import { ServiceProcess, startService, tempDataDir } from 'test/support/service-process';
import { createTestDatabase } from 'test/support/test-app';
import { until } from 'test/support/until';
import { ApiWorld, KeyHolder, ListedMessage, api } from 'test/support/world';

interface Counts {
  s_id: string;
  wakeups_fired: number;
  wakeup_messages: number;
  agent_messages: number;
}

/** Conversations whose firing is caught mid-transaction when the process dies. */
const HELD = 3;
const FREE = 7;

describe('an app process killed while wake-ups fire', () => {
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let env: Record<string, string>;
  let db: Client;
  let holder: Client | null = null;
  const processes: ServiceProcess[] = [];

  const counts = async (sIds: string[]) =>
    (
      await db.query<Counts>(
        `SELECT c.s_id,
           (SELECT count(*)::int FROM wakeups w WHERE w.conversation_id = c.id AND w.status = 'fired') AS wakeups_fired,
           (SELECT count(*)::int FROM messages m WHERE m.conversation_id = c.id AND m.type = 'user_message'
              AND m.context->>'origin' = 'wakeup') AS wakeup_messages,
           (SELECT count(*)::int FROM messages m WHERE m.conversation_id = c.id AND m.type = 'agent_message') AS agent_messages
         FROM conversations c WHERE c.s_id = ANY($1) ORDER BY c.s_id COLLATE "C"`,
        [sIds],
      )
    ).rows;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await tempDataDir();
    env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      RUN_HEARTBEAT_MS: '200',
      RUN_STALE_AFTER_MS: '1000',
      LOCAL_MODEL_CHUNK_DELAY_MS: '0',
    };
    db = new Client({ connectionString: database.url });
    await db.connect();
  });

  afterAll(async () => {
    for (const service of processes) await service.stop('SIGKILL');
    await holder?.end().catch(() => undefined);
    await db?.end();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('fires every due wake-up exactly once after a restart, including those it was firing', async () => {
    const first = await startService(env);
    processes.push(first);
    await useServedApiDocument(first.baseUrl);
    const boot: Bootstrapped = await bootstrapWorkspace(env, 'Wake Crash');
    const wId = boot.workspace.sId;
    const admin: KeyHolder = { secret: boot.apiKey.secret, workspace: boot.workspace };
    const world = new ApiWorld(first.baseUrl);
    const { assistant } = await world.globalAgents({ admin });
    const newConversations = (count: number) =>
      Promise.all(
        Array.from(
          { length: count },
          async (_, i) => (await world.conversation(admin, { title: `Wake ${i}` })).sId,
        ),
      );
    const schedule = (cIds: string[], fireAt: number) =>
      Promise.all(cIds.map((cId) => world.wakeUp(admin, cId, { agent: assistant, fireAt, reason: 'Ping' })));

    // The first firing in a database creates the wake-up author inside its transaction; done here,
    // so that no firing below waits on another one's insert.
    const [warmUp] = await newConversations(1);
    await schedule([warmUp], Date.now() + 2_000);
    await until(
      () => counts([warmUp]),
      ([row]) => row.wakeups_fired === 1,
      30_000,
    );

    const cIds = await newConversations(HELD + FREE);
    const held = cIds.slice(0, HELD);
    const free = cIds.slice(HELD);
    // A firing allocates its message's rank by updating the conversation row: holding those rows
    // stops the firings of `held` inside their transactions (a wake-up's creation only reads them).
    holder = new Client({ connectionString: database.url });
    await holder.connect();
    const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM conversations WHERE s_id = ANY($1) FOR NO KEY UPDATE', [held]);
    // One due time for all, so one scheduler pass claims every one of them; far enough ahead that
    // every creation lands before it on a loaded machine.
    await schedule(cIds, Date.now() + 5_000);

    await until(
      async () => ({
        waiting: (
          await db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
            [holderPid],
          )
        ).rows[0].n,
        answered: (await counts(free)).filter((row) => row.wakeups_fired === 1 && row.agent_messages === 1)
          .length,
      }),
      ({ waiting, answered }) => waiting === HELD && answered === FREE,
      60_000,
    );
    expect(await counts(held)).toEqual(
      held.toSorted().map((s_id) => ({ s_id, wakeups_fired: 0, wakeup_messages: 0, agent_messages: 0 })),
    );

    expect(await first.stop('SIGKILL')).toBeNull();
    // The dead process's transactions can only roll back once they get past the held rows.
    await holder.query('ROLLBACK');
    await holder.end();
    holder = null;

    const second = await startService(env);
    processes.push(second);
    const all = [warmUp, ...cIds];
    await until(
      () => counts(all),
      (rows) => rows.every((row) => row.wakeups_fired === 1 && row.agent_messages >= 1),
      60_000,
    );

    for (const cId of all) {
      const wakeUps = await api(second.baseUrl, admin).get(paths.wakeUps(wId, cId)).expect(200);
      expect(wakeUps.body).toMatchApiSchema('WakeUpsResponse');
      expect(wakeUps.body.wakeUps).toEqual([expect.objectContaining({ status: 'fired', fireCount: 1 })]);
      const messages = await api(second.baseUrl, admin).get(paths.messages(wId, cId)).expect(200);
      expect(messages.body).toMatchApiSchema('MessagesResponse');
      const list = messages.body.messages as ListedMessage[];
      expect({
        cId,
        wakeUpMessages: list.filter((m) => m.type === 'user_message' && m.context?.origin === 'wakeup')
          .length,
        agentMessages: list.filter((m) => m.type === 'agent_message').length,
      }).toEqual({ cId, wakeUpMessages: 1, agentMessages: 1 });
    }

    // Nothing fires a second time later: after a graceful stop, the log says each fired once.
    expect(await second.stop()).toBe(0);
    expect(await counts(all)).toEqual(
      all.toSorted().map((s_id) => ({ s_id, wakeups_fired: 1, wakeup_messages: 1, agent_messages: 1 })),
    );
    const events = await db.query<{ s_id: string; statuses: string[] }>(
      `SELECT c.s_id, array_agg(e.payload->'wakeUp'->>'status' ORDER BY e.id) AS statuses
       FROM conversations c JOIN conversation_events e ON e.conversation_id = c.id AND e.type = 'wake_up_updated'
       WHERE c.s_id = ANY($1) GROUP BY c.s_id ORDER BY c.s_id COLLATE "C"`,
      [all],
    );
    expect(events.rows).toEqual(all.toSorted().map((s_id) => ({ s_id, statuses: ['scheduled', 'fired'] })));
  });
});
