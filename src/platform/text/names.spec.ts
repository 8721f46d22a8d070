import { describe, expect, it } from '@jest/globals';
import { hasInvisibleCharacter } from 'src/platform/text/names';

describe('invisible characters in names', () => {
  it.each([
    'Ledger\u200b',
    'Led\u200cger',
    'Led\u200dger',
    '\u200eLedger',
    '\u202eregdeL',
    'Ledger\u2060',
    'Le\u00addger',
    'Led\ufeffger',
  ])('finds one in %j', (name) => {
    expect(hasInvisibleCharacter(name)).toBe(true);
  });

  it.each(['Ledger', 'Ｌｅｄｇｅｒ', '❤️ Favourites', 'Zoë’s notes', '漢字', 'Café\u0301'])(
    'finds none in %j',
    (name) => {
      expect(hasInvisibleCharacter(name)).toBe(false);
    },
  );
});
