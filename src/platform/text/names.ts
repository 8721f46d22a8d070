/**
 * Characters that show nothing yet make two names differ (`Ledger` and `Ledger\u200b`): zero-width
 * spaces and joiners, direction marks and embeddings, the word joiner and invisible operators, soft
 * hyphens, fillers. Variation selectors stay allowed, since emoji need them (`❤️`). The migration
 * that introduced the rule strips the same list from names stored before it.
 */
const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
];

export function hasInvisibleCharacter(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (INVISIBLE_RANGES.some(([first, last]) => code >= first && code <= last)) return true;
  }
  return false;
}
