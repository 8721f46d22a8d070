import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { createDataSourceOptions } from 'src/app.data-source';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp, createTestDatabase } from 'test/support/test-app';
import { World, WorkspaceFixture, api } from 'test/support/world';
import { DataSource } from 'typeorm';
import { undoMigrationsFrom } from 'test/support/migrations';

const MIGRATION = 'HashedSchedulesStopped';

describe("the migration that stops schedules stored with cron-parser's H", () => {
  let database: { url: string; drop(): Promise<void> };
  let t: TestApp | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('disables such triggers with a failed firing that says why and cancels such wake-ups; the others go on', async () => {
    const before = await createTestApp({ databaseUrl: database.url });
    const world = new World(before);
    const a: WorkspaceFixture = await world.workspace();
    const wId = a.workspace.sId;
    const agent = (await world.agent(a.admin)).sId;
    const schedule = (name: string, cron: string) => ({
      name,
      kind: 'schedule',
      customPrompt: 'Check the queue.',
      configuration: { cron, timezone: 'UTC' },
    });
    const created = await api(before, a.admin)
      .post(paths.triggers(wId, agent))
      .send({ triggers: [schedule('Hashed', '0 9 * * *'), schedule('On Thursdays', '0 9 * * THU')] })
      .expect(200);
    const [hashed, thursdays] = created.body.triggers as { sId: string; nextFireAt: number }[];
    const wakeUp = async (cId: string) =>
      (
        await api(before, a.admin)
          .post(paths.wakeUps(wId, cId))
          .send({
            agentConfigurationId: agent,
            reason: 'Check in',
            scheduleConfig: { type: 'cron', cron: '0 9 * * *', timezone: 'UTC' },
          })
          .expect(200)
      ).body.wakeUp as { sId: string };
    const [first, second] = [await world.conversation(a.admin), await world.conversation(a.admin)];
    const [hashedWakeUp, plainWakeUp] = [await wakeUp(first.sId), await wakeUp(second.sId)];
    await before.close();

    // Back to the schema before the migration; then the rows as an earlier version accepted them.
    const dataSource = await new DataSource(createDataSourceOptions(database.url)).initialize();
    await undoMigrationsFrom(dataSource, MIGRATION);
    await dataSource.query(
      `UPDATE triggers SET configuration = jsonb_set(configuration, '{cron}', '"H H * * *"') WHERE s_id = $1`,
      [hashed.sId],
    );
    await dataSource.query("UPDATE wakeups SET cron = 'H * * * *' WHERE s_id = $1", [hashedWakeUp.sId]);
    await dataSource.runMigrations();
    await dataSource.destroy();

    t = await createTestApp({ databaseUrl: database.url });
    const listed = await api(t, a.admin).get(paths.triggers(wId, agent)).expect(200);
    expect(listed.body.triggers).toEqual([
      expect.objectContaining({ sId: hashed.sId, status: 'disabled', nextFireAt: null }),
      expect.objectContaining({ sId: thursdays.sId, status: 'enabled', nextFireAt: thursdays.nextFireAt }),
    ]);
    const firings = await api(t, a.admin)
      .get(paths.triggerFirings(wId, agent, hashed.sId))
      .expect(200);
    expect(firings.body.firings).toEqual([
      expect.objectContaining({
        firedFor: hashed.nextFireAt,
        status: 'failed',
        error: expect.stringMatching(/^Its cron uses H, which is no longer accepted/),
        conversationId: null,
      }),
    ]);
    const wakeUps = async (cId: string) =>
      (await api(t!, a.admin).get(paths.wakeUps(wId, cId)).expect(200)).body.wakeUps as {
        sId: string;
        status: string;
      }[];
    expect(await wakeUps(first.sId)).toEqual([
      expect.objectContaining({ sId: hashedWakeUp.sId, status: 'cancelled' }),
    ]);
    expect(await wakeUps(second.sId)).toEqual([
      expect.objectContaining({ sId: plainWakeUp.sId, status: 'scheduled' }),
    ]);
  });
});
