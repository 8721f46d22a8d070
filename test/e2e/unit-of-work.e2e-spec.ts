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
});
