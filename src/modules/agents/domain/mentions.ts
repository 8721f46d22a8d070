/** What may be mentioned: an agent or a member, by the label shown after `@`. */
export interface Mentionable {
  id: string;
  type: 'agent' | 'user';
  label: string;
  /** Other words it is found by (a member's username). */
  aliases: readonly string[];
}

/**
 * How well `query` names a mentionable, 0 best: the label starts with it, then one of its words
 * or aliases does, then it appears anywhere; null when it does not match. An empty query matches
 * all equally.
 */
export function mentionRank(query: string, mentionable: Mentionable): number | null {
  const needle = query.trim().toLowerCase();
  if (needle === '') return 0;
  const label = mentionable.label.toLowerCase();
  if (label.startsWith(needle)) return 0;
  const words = [...label.split(/[\s_-]+/), ...mentionable.aliases.map((alias) => alias.toLowerCase())];
  if (words.some((word) => word.startsWith(needle))) return 1;
  if (label.includes(needle)) return 2;
  return null;
}

/** Dust's serialized mention, as its clients render and send it back. */
export function serializedMention({ id, type, label }: Mentionable): string {
  return type === 'agent' ? `:mention[${label}]{sId=${id}}` : `:mention_user[${label}]{sId=${id}}`;
}

const ASCII_MENTION_ENDS = ' \t\n\r\f\v.,!?;:';

/** What may follow `@label` for it to be a mention: a space, or punctuation ending a phrase (or the end). */
function endsMention(char: string): boolean {
  return ASCII_MENTION_ENDS.includes(char) || (char > '\x7f' && /\s/u.test(char));
}

/**
 * `markdown` with each `@label` of a mentionable (any case, at the start or after a space, ended
 * by a space, punctuation or the end) serialized as Dust's mention format; the longest label wins
 * (`@AI Assistant Pro` over `@AI`). Each `@` costs a look at the next characters up to the
 * longest label and a look-up where a label could end, whatever the number of mentionables.
 */
export function serializeMentions(markdown: string, mentionables: readonly Mentionable[]): string {
  // Keyed by length then lower-cased label: lower-casing may change a text's length, slicing may not.
  const byLength = new Map<number, Map<string, Mentionable>>();
  for (const mentionable of mentionables) {
    const { length } = mentionable.label;
    if (length === 0) continue;
    const labels = byLength.get(length) ?? new Map<string, Mentionable>();
    const key = mentionable.label.toLowerCase();
    if (!labels.has(key)) labels.set(key, mentionable);
    byLength.set(length, labels);
  }
  const longest = Math.max(0, ...byLength.keys());
  let out = '';
  let copiedUpTo = 0;
  let at = markdown.indexOf('@');
  while (at !== -1) {
    let next = at + 1;
    if (at === 0 || /\s/u.test(markdown[at - 1])) {
      const found = longestLabelAt(markdown, at + 1, longest, byLength);
      if (found) {
        out += markdown.slice(copiedUpTo, at) + serializedMention(found);
        copiedUpTo = next = at + 1 + found.label.length;
      }
    }
    at = markdown.indexOf('@', next);
  }
  return out + markdown.slice(copiedUpTo);
}

/** The mentionable with the longest label that `text` holds at `start`, ended where a mention may end. */
function longestLabelAt(
  text: string,
  start: number,
  longest: number,
  byLength: Map<number, Map<string, Mentionable>>,
): Mentionable | null {
  const window = text.slice(start, start + longest);
  // Lower-cased once; where that changes the length, each candidate is lower-cased on its own.
  const lowered = window.toLowerCase();
  const candidate = (length: number) =>
    lowered.length === window.length ? lowered.slice(0, length) : window.slice(0, length).toLowerCase();
  let found: Mentionable | null = null;
  for (let length = 1; length <= window.length; length += 1) {
    if (start + length < text.length && !endsMention(text[start + length])) continue;
    const labels = byLength.get(length);
    if (labels) found = labels.get(candidate(length)) ?? found;
  }
  return found;
}
