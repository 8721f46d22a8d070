import { describe, it } from '@jest/globals';
import { expectOwnDatabase } from 'test/support/database-isolation';

describe('database per test file (B)', () => {
  it('sees only the rows it wrote', () => expectOwnDatabase('B'));
});
