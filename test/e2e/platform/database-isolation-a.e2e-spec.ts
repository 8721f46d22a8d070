import { describe, it } from '@jest/globals';
import { expectOwnDatabase } from 'test/support/database-isolation';

describe('database per test file (A)', () => {
  it('sees only the rows it wrote', () => expectOwnDatabase('A'));
});
