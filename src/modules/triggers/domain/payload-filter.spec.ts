import { describe, expect, it } from '@jest/globals';
import {
  FILTER_MAX_DEPTH,
  FilterSyntaxError,
  matchesPayload,
  parsePayloadFilter,
} from 'src/modules/triggers/domain/payload-filter';

const pr = {
  action: 'opened',
  number: 7,
  draft: false,
  pull_request: { labels: [{ name: 'bug' }, { name: 'ui' }], 'base-ref': 'main', additions: 120 },
  sender: null,
};
const matches = (filter: string, payload: unknown = pr) =>
  matchesPayload(parsePayloadFilter(filter), payload);

describe('payload filters', () => {
  it('compares values at a path with ==, !=, and orders numbers and strings', () => {
    expect(matches('$.action == "opened"')).toBe(true);
    expect(matches('$.action != "opened"')).toBe(false);
    expect(matches('$.pull_request.additions > 100')).toBe(true);
    expect(matches('$.pull_request.additions <= 100')).toBe(false);
    expect(matches('$.action < "p"')).toBe(true);
    // No order between a string and a number: it does not match either way.
    expect(matches('$.action > 1')).toBe(false);
    expect(matches('$.action < 1')).toBe(false);
    expect(matches('$.draft == false && $.sender == null')).toBe(true);
  });

  it('follows array indexes and quoted names, and lists with in', () => {
    expect(matches('$.pull_request.labels[1].name == "ui"')).toBe(true);
    expect(matches('$["pull_request"]["base-ref"] == "main"')).toBe(true);
    expect(matches('$.action in ["opened", "reopened"]')).toBe(true);
    expect(matches('$.number in [1, 2]')).toBe(false);
    // A missing path is undefined: not equal to anything, not even null.
    expect(matches('$.nope.deeper == null')).toBe(false);
    expect(matches('$.pull_request.labels[9].name == "x"')).toBe(false);
    // Names of the prototype are not fields of the payload.
    expect(matches('$.action.length == 6')).toBe(false);
    expect(matches('$.constructor')).toBe(false);
  });

  it('combines with &&, ||, ! and parentheses, && binding tighter', () => {
    expect(matches('$.draft || $.number == 7')).toBe(true);
    expect(matches('!$.draft && ($.action == "closed" || $.number >= 7)')).toBe(true);
    expect(matches('$.action == "closed" && $.number == 7 || $.draft == false')).toBe(true);
    expect(matches('$.action == "closed" && ($.number == 7 || $.draft == false)')).toBe(false);
    expect(matches('$.pull_request')).toBe(true);
    expect(matches('$.sender')).toBe(false);
  });

  it('takes FILTER_MAX_DEPTH levels of negations and parentheses, the limit its refusal names', () => {
    const negations = (n: number) => `${'!'.repeat(n)}$.draft`;
    const parentheses = (n: number) => `${'('.repeat(n)}$.draft${')'.repeat(n)}`;
    expect(matches(negations(FILTER_MAX_DEPTH))).toBe(false);
    expect(matches(parentheses(FILTER_MAX_DEPTH))).toBe(false);
    const refusal = `the condition nests more than ${FILTER_MAX_DEPTH} levels deep`;
    expect(() => parsePayloadFilter(negations(FILTER_MAX_DEPTH + 1))).toThrow(refusal);
    expect(() => parsePayloadFilter(parentheses(FILTER_MAX_DEPTH + 1))).toThrow(refusal);
  });

  it.each([
    ['', /the condition is empty/],
    ['action == "opened"', /expected a path starting with "\$".*position 1, found "action"/],
    ['$.action = "opened"', /unexpected character "=" at position 10/],
    ['$.action == opened', /expected a value.*position 13, found "opened"/],
    ['$.action == "opened" &&', /expected a path .* at the end of the condition/],
    ['($.draft', /expected "\)" at the end of the condition/],
    ['$.labels[-1]', /an array index or a quoted field name/],
    ['$.action in ["a" "b"]', /expected "," or "]" at position 18/],
    ['$.a == 1 $.b', /expected the end of the condition at position 10/],
    ['$.a == "unterminated', /unexpected character """ at position 8/],
    [`${'!'.repeat(17)}$.a`, /nests more than 16 levels/],
  ])('refuses %j, saying what is wrong and where', (source, message) => {
    expect(() => parsePayloadFilter(source)).toThrow(FilterSyntaxError);
    expect(() => parsePayloadFilter(source)).toThrow(message);
  });
});
