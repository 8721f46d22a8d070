import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { functionNames } from 'src/modules/runtime/domain/tool-names';

describe('functionNames', () => {
  it('joins server and tool with two underscores and replaces what providers refuse', () => {
    expect(functionNames([{ server: 'web_search_&_browse', tool: 'fetch page' }])).toEqual([
      'web_search___browse__fetch_page',
    ]);
  });

  it('gives every tool a distinct name of at most 64 allowed characters', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ server: fc.string({ maxLength: 80 }), tool: fc.string({ maxLength: 80 }) }), {
          maxLength: 40,
        }),
        (tools) => {
          const names = functionNames(tools);
          expect(new Set(names).size).toBe(tools.length);
          for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
        },
      ),
    );
  });
});
