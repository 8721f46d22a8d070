import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { expect } from 'test/support/expect';
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
});
