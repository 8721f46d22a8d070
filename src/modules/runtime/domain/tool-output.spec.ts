import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { capToolOutput } from 'src/modules/runtime/domain/tool-output';

const NOTE = /\n\[Output truncated: the tool returned (\d+) bytes; only the first (\d+) are shown\.\]$/;

describe('capToolOutput', () => {
  it('keeps output within the cap as it is, its items joined by newlines', () => {
    expect(capToolOutput(['héllo'], 6)).toBe('héllo');
    expect(capToolOutput(['one', 'two'], 7)).toBe('one\ntwo');
    expect(capToolOutput([], 10)).toBe('');
  });

  it('cuts longer output on a character boundary and says so', () => {
    const capped = capToolOutput(['ééééé'], 5);
    expect(capped.startsWith('éé\n')).toBe(true);
    expect(capped).toContain('the tool returned 10 bytes; only the first 4 are shown');
  });

  it('counts the items past the cut without keeping them', () => {
    const capped = capToolOutput(['abc', 'def', 'x'.repeat(1_000_000)], 5);
    expect(capped).toBe(
      'abc\nd\n[Output truncated: the tool returned 1000008 bytes; only the first 5 are shown.]',
    );
  });

  it('cuts a huge item by its start, not whole', () => {
    const capped = capToolOutput(['🙂'.repeat(1_000_000)], 10);
    expect(capped.startsWith('🙂🙂\n')).toBe(true);
    expect(capped).toMatch(NOTE);
    expect(NOTE.exec(capped)!.slice(1)).toEqual(['4000000', '8']);
  });

  it('never shows more than the cap, and shows all of what fits', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary' }), { maxLength: 5 }),
        fc.nat(40),
        (items, maxBytes) => {
          const whole = items.join('\n');
          const capped = capToolOutput(items, maxBytes);
          if (Buffer.byteLength(whole) <= maxBytes) {
            expect(capped).toBe(whole);
            return;
          }
          const [, total, shown] = NOTE.exec(capped)!.map(Number);
          const head = capped.replace(NOTE, '');
          expect(total).toBe(Buffer.byteLength(whole));
          expect(shown).toBe(Buffer.byteLength(head));
          expect(shown).toBeLessThanOrEqual(maxBytes);
          // Only a character that does not fit whole is left out of the room.
          expect(maxBytes - shown).toBeLessThan(4);
          expect(
            whole.startsWith(head) || Buffer.from(whole).subarray(0, shown).equals(Buffer.from(head)),
          ).toBe(true);
        },
      ),
    );
  });
});
