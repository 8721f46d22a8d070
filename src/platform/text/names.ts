import { InvalidRequestError } from 'src/platform/errors/domain-error';

/**
 * The one rule for text people read as a name (members, spaces, keys, tool servers, tags, skills,
 * data sources, titles, file names): no character that shows nothing yet makes two names differ
 * (`ev-ok` and `ev-ok\u200b`), reorders what is shown (`\u202e` turns `gpj.exe` around), or breaks
 * the line. Emoji keep what they need: variation selectors (`❤️`), a zero-width joiner between two
 * pictographs (`👩‍💻`), tag characters in a flag sequence (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
 */

/** Bidirectional controls: embeddings, overrides, isolates, and the three direction marks. */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/** C0 and C1 controls, DEL, and the line and paragraph separators. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
/**
 * Format characters (zero-width spaces and joiners, soft hyphen, word joiner, invisible operators,
 * byte-order mark, tag characters…), then the blanks that are letters or marks by category: the
 * combining grapheme joiner, Hangul and Khmer fillers, Mongolian variation selectors.
 */
const FORMAT = /\p{Cf}/u;
const BLANKS = new Set([
  0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180b, 0x180c, 0x180d, 0x180f, 0x2065, 0x3164, 0xffa0,
]);

/** What emoji legitimately hold of the above. */
const EMOJI_ZWJ =
  /(?<=\p{Extended_Pictographic}(?:\ufe0f|\p{Emoji_Modifier})?)\u200d(?=\p{Extended_Pictographic})/gu;
const EMOJI_TAGS = /(?<=\u{1f3f4})[\u{e0020}-\u{e007e}]+\u{e007f}/gu;

type RefusedKind =
  'a bidirectional control character' | 'a control character or line break' | 'an invisible character';

function refusedKind(char: string): RefusedKind | null {
  if (BIDI_CONTROL.test(char)) return 'a bidirectional control character';
  if (CONTROL.test(char)) return 'a control character or line break';
  if (FORMAT.test(char) || BLANKS.has(char.codePointAt(0)!)) return 'an invisible character';
  return null;
}

/** The refused characters of `text` with their UTF-16 offsets, emoji sequences spared. */
function* refusedCharacters(text: string): Generator<{ offset: number; char: string; kind: RefusedKind }> {
  const spared = new Set<number>();
  for (const match of text.matchAll(EMOJI_ZWJ)) spared.add(match.index);
  for (const match of text.matchAll(EMOJI_TAGS)) {
    for (let offset = match.index; offset < match.index + match[0].length; offset += 1) spared.add(offset);
  }
  let offset = 0;
  for (const char of text) {
    const kind = refusedKind(char);
    if (kind && !spared.has(offset)) yield { offset, char, kind };
    offset += char.length;
  }
}

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why `text` cannot be a name, naming the first offending character, or null when it can. */
export function nameCharacterProblem(text: string): string | null {
  for (const { char, kind } of refusedCharacters(text)) return `must not contain ${codePoint(char)}, ${kind}`;
  return null;
}

/** `text` without the characters names refuse: for names taken as given, such as uploaded file names. */
export function withoutRefusedCharacters(text: string): string {
  const refused = new Set([...refusedCharacters(text)].map(({ offset }) => offset));
  if (refused.size === 0) return text;
  let kept = '';
  let offset = 0;
  for (const char of text) {
    if (!refused.has(offset)) kept += char;
    offset += char.length;
  }
  return kept;
}

/** Why `name`, once trimmed, is not a name of at most `max` characters, or null. */
export function nameProblem(name: string, max: number): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > max) return `must be 1 to ${max} characters`;
  return nameCharacterProblem(trimmed);
}

/** The trimmed name, or a 400 naming `field` and the problem. */
export function checkName(field: string, name: string, max: number): string {
  const problem = nameProblem(name, max);
  if (problem) throw new InvalidRequestError(`${field}: ${problem}.`);
  return name.trim();
}
