import { describe, expect, it } from '@jest/globals';
import {
  REMOTE_TOOLS_MAX,
  REQUIRE_APPROVAL_TOOLS_MAX,
  SERVER_VERSION_MAX,
  requireApprovalProblem,
  serverVersionOf,
  toolListProblem,
} from 'src/modules/agents/domain/catalogue';

const tool = (name: string, description = '') => ({ name, description, inputSchema: { type: 'object' } });

describe('requireApprovalProblem', () => {
  it.each([['never'], ['always'], [['delete_record']], [['a', 'b.c', 'd-e']]])('accepts %j', (value) => {
    expect(requireApprovalProblem(value)).toBeNull();
  });

  it('accepts the largest list', () => {
    const names = Array.from({ length: REQUIRE_APPROVAL_TOOLS_MAX }, (_, i) => `t${i}`.padEnd(128, 'x'));
    expect(requireApprovalProblem(names)).toBeNull();
  });

  it.each([
    [undefined, /never/],
    [null, /never/],
    ['sometimes', /never/],
    [{}, /never/],
    [[], /at least one/],
    [[''], /1 to 128/],
    [['x'.repeat(129)], /1 to 128/],
    [[7], /1 to 128/],
    [['tab\there'], /control/],
    [['a', 'a'], /more than once/],
    [Array.from({ length: REQUIRE_APPROVAL_TOOLS_MAX + 1 }, (_, i) => `t${i}`), /at most 256/],
  ])('refuses %j', (value, message) => {
    expect(requireApprovalProblem(value)).toMatch(message);
  });
});

describe('toolListProblem', () => {
  it('keeps an ordinary list', () => {
    expect(toolListProblem([tool('add', 'Adds.'), tool('écho', 'Répète 🙂')])).toBeNull();
  });

  it('refuses too many tools, too many bytes and text jsonb cannot store', () => {
    expect(toolListProblem(Array.from({ length: REMOTE_TOOLS_MAX + 1 }, (_, i) => tool(`t${i}`)))).toMatch(
      /at most 512/,
    );
    expect(toolListProblem([tool('big', 'x'.repeat(1_048_576))])).toMatch(/bytes/);
    expect(toolListProblem([tool('nul', 'a\u0000b')])).toMatch(/NUL/);
    expect(toolListProblem([tool('surrogate', 'a\ud800b')])).toMatch(/surrogate/);
    expect(toolListProblem([{ name: 'key', description: '', inputSchema: { 'bad\u0000key': 1 } }])).toMatch(
      /NUL/,
    );
  });
});

describe('serverVersionOf', () => {
  it('keeps a declared version as it is', () => {
    expect(serverVersionOf('2.3.1-beta+build.7')).toBe('2.3.1-beta+build.7');
  });

  it('drops control and invisible characters, and what is blank', () => {
    expect(serverVersionOf(' 1.0\u0000\u202e\u200b.2\n')).toBe('1.0.2');
    expect(serverVersionOf('\u0007 ')).toBeNull();
    expect(serverVersionOf(undefined)).toBeNull();
  });

  it(`cuts a long version to ${SERVER_VERSION_MAX} characters, never inside an emoji`, () => {
    expect(serverVersionOf('9'.repeat(500))).toBe('9'.repeat(SERVER_VERSION_MAX));
    expect(serverVersionOf('🚀'.repeat(100))).toBe('🚀'.repeat(SERVER_VERSION_MAX));
  });
});
