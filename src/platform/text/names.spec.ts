import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { nameCharacterProblem } from 'src/platform/text/names';

describe('the characters a name may hold', () => {
  it.each([
    ['Ledger\u200b', 'U+200B, an invisible character'],
    ['Led\u200cger', 'U+200C, an invisible character'],
    ['Led\u200dger', 'U+200D, an invisible character'],
    ['Ledger\u2060', 'U+2060, an invisible character'],
    ['Le\u00addger', 'U+00AD, an invisible character'],
    ['Led\ufeffger', 'U+FEFF, an invisible character'],
    ['\u3164', 'U+3164, an invisible character'],
    ['ev-ok\u{e0041}\u{e0042}', 'U+E0041, an invisible character'],
    ['\u{1f3f4}\u{e0067}', 'U+E0067, an invisible character'],
    ['\u200eLedger', 'U+200E, a bidirectional control character'],
    ['\u202eregdeL', 'U+202E, a bidirectional control character'],
    ['invoice\u202dfdp.exe', 'U+202D, a bidirectional control character'],
    ['\u2067Ledger\u2069', 'U+2067, a bidirectional control character'],
    ['Led\u061cger', 'U+061C, a bidirectional control character'],
    ['Led\nger', 'U+000A, a control character or line break'],
    ['Led\tger', 'U+0009, a control character or line break'],
    ['Led\u0085ger', 'U+0085, a control character or line break'],
    ['Led\u2028ger', 'U+2028, a control character or line break'],
    ['Led\u007fger', 'U+007F, a control character or line break'],
  ])('refuses %j: %s', (name, problem) => {
    expect(nameCharacterProblem(name)).toBe(`must not contain ${problem}`);
  });

  it.each([
    'Ledger',
    'Ｌｅｄｇｅｒ',
    '❤️ Favourites',
    'Zoë’s notes',
    '漢字',
    'Café\u0301',
    'Ada Lovelace',
    '👩‍💻 Developers',
    '👨🏽‍🚀 Launch',
    '🏳️‍🌈 Pride',
    '\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} Scotland',
    'عربي',
    'עברית',
    'नमस्ते',
  ])('accepts %j', (name) => {
    expect(nameCharacterProblem(name)).toBeNull();
  });

  it('refuses a joiner that does not join two pictographs', () => {
    expect(nameCharacterProblem('👩\u200d')).toMatch(/U\+200D/);
    expect(nameCharacterProblem('a\u200d💻')).toMatch(/U\+200D/);
  });

  it('accepts any printable text without the refused characters', () => {
    const blanks = [0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180b, 0x180c, 0x180d, 0x180f, 0x3164, 0xffa0];
    const printable = fc
      .string({ unit: 'grapheme', maxLength: 40 })
      .filter(
        (text) =>
          !/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(text) &&
          ![...text].some((char) => blanks.includes(char.codePointAt(0)!)),
      );
    fc.assert(fc.property(printable, (text) => nameCharacterProblem(text) === null));
  });
});
