import { describe, expect, it } from '@jest/globals';
import { generatePrefixedSId, generateSId, randomBase62 } from 'src/platform/ids/sid';

describe('sId generation', () => {
  it('makes 10 base62 characters', () => {
    expect(generateSId()).toMatch(/^[0-9A-Za-z]{10}$/);
  });

  it('prefixes with an underscore', () => {
    expect(generatePrefixedSId('fil')).toMatch(/^fil_[0-9A-Za-z]{10}$/);
  });

  it('does not repeat over many draws', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => generateSId()));
    expect(ids.size).toBe(10_000);
  });

  it('uses the whole alphabet', () => {
    const seen = new Set(randomBase62(20_000));
    expect(seen.size).toBe(62);
  });
});
