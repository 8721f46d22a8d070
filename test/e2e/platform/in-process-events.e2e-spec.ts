import { afterAll, beforeAll, beforeEach, describe, it, jest } from '@jest/globals';
import { Controller, Logger } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  InProcessEvents,
  OnCommittedEvent,
  OnEventInTransaction,
} from 'src/platform/events/in-process-events';
import { WorkspaceCreated } from 'src/modules/identity/application/identity.events';
import { WakeUpScheduled } from 'src/modules/wakeups/application/wakeups.events';
import { expect } from 'test/support/expect';
import { TestApp, createTestApp } from 'test/support/test-app';
import { paths } from 'test/support/paths';
import { World, WorkspaceFixture, api } from 'test/support/world';

/** Listeners next to the app's own: they note what they hear, or fail when a test arms them. */
@Controller()
class TestListeners {
  static unitOfWork: TypeormUnitOfWork;
  static scheduled: { dueAt: Date; inTransaction: boolean }[] = [];
  static failScheduled = false;
  static failWorkspaceCreated = false;

  @OnCommittedEvent(WakeUpScheduled)
  noteScheduled({ dueAt }: WakeUpScheduled): void {
    const inTransaction = TestListeners.unitOfWork.manager().queryRunner !== undefined;
    TestListeners.scheduled.push({ dueAt, inTransaction });
    if (TestListeners.failScheduled) throw new Error('scheduled listener failed on purpose');
  }

  @OnEventInTransaction(WorkspaceCreated)
  failOnWorkspaceCreated(): void {
    if (TestListeners.failWorkspaceCreated) throw new Error('workspace listener failed on purpose');
  }
}

describe('in-process events', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let unitOfWork: TypeormUnitOfWork;

  beforeAll(async () => {
    t = await createTestApp({
      controllers: [TestListeners],
      env: {
        RUN_HEARTBEAT_MS: 1000,
        RUN_STALE_AFTER_MS: 60_000,
        LOCAL_MODEL_CHUNK_DELAY_MS: 0,
        RUN_CONCURRENCY: 8,
      },
    });
    unitOfWork = t.app.get(TypeormUnitOfWork);
    TestListeners.unitOfWork = unitOfWork;
    world = new World(t);
    a = await world.workspace();
  });
  afterAll(() => t.close());
  beforeEach(() => {
    TestListeners.scheduled = [];
    TestListeners.failScheduled = false;
    TestListeners.failWorkspaceCreated = false;
  });

  it('announces a new wake-up once it has committed, to listeners outside its transaction', async () => {
    const { assistant } = await world.globalAgents(a);
    const { sId: cId } = await world.conversation(a.admin, { title: 'Later' });
    const fireAt = Date.now() + 60_000;
    await world.wakeUp(a.admin, cId, { agent: assistant, fireAt, reason: 'Check the deployment' });
    expect(TestListeners.scheduled).toEqual([{ dueAt: new Date(fireAt), inTransaction: false }]);
  });

  it('announces nothing when the transaction rolls back, and only after the commit otherwise', async () => {
    const events = t.app.get(InProcessEvents);
    const dueAt = new Date(Date.now() + 60_000);
    await expect(
      unitOfWork.run(async () => {
        events.emitAfterCommit(WakeUpScheduled, { dueAt });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(TestListeners.scheduled).toEqual([]);

    await unitOfWork.run(async () => {
      events.emitAfterCommit(WakeUpScheduled, { dueAt });
      expect(TestListeners.scheduled).toEqual([]);
    });
    expect(TestListeners.scheduled).toEqual([{ dueAt, inTransaction: false }]);
  });

  it('logs a failing listener of a committed event; the change stays', async () => {
    const { assistant } = await world.globalAgents(a);
    const { sId: cId } = await world.conversation(a.admin, { title: 'Later' });
    const logError = jest.spyOn(Logger.prototype, 'error');
    TestListeners.failScheduled = true;
    try {
      await world.wakeUp(a.admin, cId, {
        agent: assistant,
        fireAt: Date.now() + 60_000,
        reason: 'Still kept?',
      });
      const listed = await api(t, a.admin).get(paths.wakeUps(a.workspace.sId, cId)).expect(200);
      expect(listed.body.wakeUps).toEqual([expect.objectContaining({ status: 'scheduled' })]);
      expect(logError.mock.calls.map(([message]): unknown => message)).toContain(
        'scheduled listener failed on purpose',
      );
    } finally {
      logError.mockRestore();
    }
  });

  it('undoes a new workspace and its global agents when a listener in its transaction fails', async () => {
    const count = async (sql: string) => (await t.dataSource.query<{ n: number }[]>(sql))[0].n;
    const agentsBefore = await count('SELECT count(*)::int AS n FROM agent_configurations');
    TestListeners.failWorkspaceCreated = true;
    await expect(world.workspace('Never committed')).rejects.toThrow('workspace listener failed on purpose');
    expect(await count(`SELECT count(*)::int AS n FROM workspaces WHERE name = 'Never committed'`)).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM agent_configurations')).toBe(agentsBefore);

    TestListeners.failWorkspaceCreated = false;
    const created = await world.workspace('Committed');
    expect(Object.keys(await world.globalAgents(created)).length).toBeGreaterThan(0);
  });
});
