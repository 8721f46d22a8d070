import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { expect } from 'test/support/expect';
import { until, untilTrue } from 'test/support/until';
import { TestApp, createTestApp } from 'test/support/test-app';

describe('unit of work', () => {
  let t: TestApp;
  let unitOfWork: TypeormUnitOfWork;

  beforeAll(async () => {
    t = await createTestApp();
    unitOfWork = t.app.get(TypeormUnitOfWork);
  });
  afterAll(() => t.close());

  /** A read that notes when it starts and ends, on the current transaction's connection if any. */
  const reads = (log: string[]) =>
    ['a', 'b'].map((name) => async () => {
      log.push(`start ${name}`);
      await unitOfWork.manager().query('SELECT pg_sleep(0.02)');
      log.push(`end ${name}`);
      return name;
    }) as [() => Promise<string>, () => Promise<string>];

  it('runs independent reads at once outside a transaction, one after another inside one', async () => {
    const outside: string[] = [];
    expect(await unitOfWork.all(reads(outside))).toEqual(['a', 'b']);
    expect(outside.slice(0, 2)).toEqual(['start a', 'start b']);

    const inside: string[] = [];
    expect(await unitOfWork.run(() => unitOfWork.all(reads(inside)))).toEqual(['a', 'b']);
    expect(inside).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('runs the victim of a deadlock again, so both transactions commit and each after-commit runs once', async () => {
    const manager = () => unitOfWork.manager();
    await manager().query('CREATE TABLE deadlock_rows (id int PRIMARY KEY, value int NOT NULL)');
    await manager().query('INSERT INTO deadlock_rows VALUES (1, 0), (2, 0)');
    const attempts = { first: 0, second: 0 };
    const committed: string[] = [];
    let bothHoldTheirFirstRow!: () => void;
    const barrier = new Promise<void>((resolve) => (bothHoldTheirFirstRow = resolve));
    let holding = 0;
    /** Locks `first` then `second`; on its first attempt waits until the other holds its first row. */
    const lockInOrder = (name: 'first' | 'second', first: number, second: number) =>
      unitOfWork.run(async () => {
        attempts[name]++;
        await manager().query('UPDATE deadlock_rows SET value = value + 1 WHERE id = $1', [first]);
        if (attempts[name] === 1) {
          if (++holding === 2) bothHoldTheirFirstRow();
          await barrier;
        }
        await manager().query('UPDATE deadlock_rows SET value = value + 1 WHERE id = $1', [second]);
        unitOfWork.afterCommit(() => committed.push(name));
        return name;
      });

    const results = await Promise.all([lockInOrder('first', 1, 2), lockInOrder('second', 2, 1)]);

    expect(results).toEqual(['first', 'second']);
    // PostgreSQL broke the deadlock by rolling one back; that one ran again and committed.
    expect(attempts.first + attempts.second).toBe(3);
    expect(committed.sort()).toEqual(['first', 'second']);
    const rows = await manager().query<{ id: number; value: number }[]>(
      'SELECT id, value FROM deadlock_rows ORDER BY id',
    );
    expect(rows).toEqual([
      { id: 1, value: 2 },
      { id: 2, value: 2 },
    ]);
    await manager().query('DROP TABLE deadlock_rows');
  });

  it('commits on a lane while every pooled connection is held; rolls back there; replaces a lost connection', async () => {
    const manager = () => unitOfWork.manager();
    const lanePid = () =>
      unitOfWork.runInLane('test lane', async () => {
        const [row] = await manager().query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
        return row.pid;
      });
    await manager().query('CREATE TABLE lane_rows (id int PRIMARY KEY)');
    const firstPid = await lanePid();

    // Every other connection of the pool (the lane keeps one) is held by a transaction that waits.
    const poolSize = (t.dataSource.driver as unknown as { master: { options: { max: number } } }).master
      .options.max;
    const others = poolSize - 1;
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    let holding = 0;
    const held = Array.from({ length: others }, () =>
      unitOfWork.run(async () => {
        await manager().query('SELECT 1');
        holding++;
        await gate;
      }),
    );
    await untilTrue(() => holding === others);
    const pool = (t.dataSource.driver as unknown as { master: { totalCount: number; idleCount: number } })
      .master;
    expect([pool.totalCount, pool.idleCount]).toEqual([poolSize, 0]);
    const committed: string[] = [];
    const onLane = unitOfWork.runInLane('test lane', async () => {
      await manager().query('INSERT INTO lane_rows VALUES (1)');
      unitOfWork.afterCommit(() => committed.push('lane'));
      return 'lane';
    });
    const waited = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 3_000));
    expect(await Promise.race([onLane, waited])).toBe('lane');
    expect(committed).toEqual(['lane']);
    letGo();
    await Promise.all(held);

    await expect(
      unitOfWork.runInLane('test lane', async () => {
        await manager().query('INSERT INTO lane_rows VALUES (2)');
        throw new Error('changed its mind');
      }),
    ).rejects.toThrow('changed its mind');
    expect(await manager().query('SELECT id FROM lane_rows ORDER BY id')).toEqual([{ id: 1 }]);
    expect(await lanePid()).toBe(firstPid);

    // The lane's connection is cut (the database restarted it, say): the next transaction gets another.
    await manager().query('SELECT pg_terminate_backend($1)', [firstPid]);
    await until(
      async () =>
        (await manager().query<unknown[]>('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [firstPid]))
          .length,
      (count) => count === 0,
    );
    const nextPid = await lanePid();
    expect(nextPid).not.toBe(firstPid);
    await manager().query('DROP TABLE lane_rows');
  });
});
