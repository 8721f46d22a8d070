import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { rm } from 'node:fs/promises';
import { Client } from 'pg';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { bootstrapWorkspace, useServedApiDocument } from 'test/support/service-api';
import { ServiceProcess, startService, tempDataDir } from 'test/support/service-process';
import { createTestDatabase } from 'test/support/test-app';
import { until } from 'test/support/until';
import { ApiWorld, KeyHolder, api } from 'test/support/world';

interface Counts {
  s_id: string;
  firings: number;
  conversations: number;
  triggered_messages: number;
  agent_messages: number;
}

const TRIGGERS = 8;

describe('schedules fired by two processes, one killed mid-firing', () => {
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let env: Record<string, string>;
  let db: Client;
  let holder: Client | null = null;
  const processes: ServiceProcess[] = [];

  const counts = async (sIds: string[]) =>
    (
      await db.query<Counts>(
        `SELECT t.s_id,
           (SELECT count(*)::int FROM trigger_firings f WHERE f.trigger_id = t.id AND f.status = 'succeeded') AS firings,
           (SELECT count(*)::int FROM conversations c WHERE c.trigger_id = t.s_id) AS conversations,
           (SELECT count(*)::int FROM messages m JOIN conversations c ON c.id = m.conversation_id
              WHERE c.trigger_id = t.s_id AND m.type = 'user_message' AND m.context->>'origin' = 'triggered') AS triggered_messages,
           (SELECT count(*)::int FROM messages m JOIN conversations c ON c.id = m.conversation_id
              WHERE c.trigger_id = t.s_id AND m.type = 'agent_message') AS agent_messages
         FROM triggers t WHERE t.s_id = ANY($1) ORDER BY t.s_id COLLATE "C"`,
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
      // Batches of two: eight schedules make four batches, more than one process's three lanes hold.
      TRIGGERS_FIRING_BATCH_SIZE: '2',
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

  it('opens exactly one conversation per due time, including the firings the dead process held', async () => {
    const [first, second] = await Promise.all([startService(env), startService(env)]);
    processes.push(first, second);
    await useServedApiDocument(first.baseUrl);
    const boot = await bootstrapWorkspace(env, 'Trigger Crash');
    const admin: KeyHolder = { secret: boot.apiKey.secret, workspace: boot.workspace };
    const world = new ApiWorld(first.baseUrl);
    const agent = (await world.agent(admin)).sId;
    const created = await api(first.baseUrl, admin)
      .post(paths.triggers(boot.workspace.sId, agent))
      .send({
        triggers: Array.from({ length: TRIGGERS }, (_, i) => ({
          name: `Digest ${i}`,
          kind: 'schedule',
          customPrompt: 'Summarise the day.',
          configuration: { cron: '0 9 * * *', timezone: 'UTC' },
        })),
      })
      .expect(200);
    const sIds = (created.body.triggers as { sId: string }[]).map((trigger) => trigger.sId);

    // Opening a conversation inserts into `conversations`: a SHARE lock on the table stops every
    // firing inside its transaction, after its claim and its firing row.
    holder = new Client({ connectionString: database.url });
    await holder.connect();
    const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE conversations IN SHARE MODE');
    // Every schedule due now rather than tomorrow at 09:00: the processes' workers poll every 5 s.
    await db.query('UPDATE triggers SET next_fire_at = now() WHERE s_id = ANY($1)', [sIds]);

    // Both processes hold batches (two each at most, one per lane), all waiting on the lock.
    await until(
      async () =>
        (
          await db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
            [holderPid],
          )
        ).rows[0].n,
      (waiting) => waiting === TRIGGERS / 2,
      30_000,
    );

    expect(await first.stop('SIGKILL')).toBeNull();
    await holder.query('ROLLBACK');
    await holder.end();
    holder = null;
    const restarted = await startService(env);
    processes.push(restarted);

    await until(
      () => counts(sIds),
      (rows) => rows.every((row) => row.firings === 1 && row.agent_messages >= 1),
      60_000,
    );
    expect(await second.stop()).toBe(0);
    expect(await restarted.stop()).toBe(0);
    expect(await counts(sIds)).toEqual(
      sIds.toSorted().map((s_id) => ({
        s_id,
        firings: 1,
        conversations: 1,
        triggered_messages: 1,
        agent_messages: 1,
      })),
    );
    const next = await db.query<{ next_fire_at: Date }>(
      'SELECT DISTINCT next_fire_at FROM triggers WHERE s_id = ANY($1)',
      [sIds],
    );
    expect(next.rows).toHaveLength(1);
    expect(next.rows[0].next_fire_at.getUTCHours()).toBe(9);
  });
});
