import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { nameCharacterProblem } from 'src/platform/text/names';
import { EMOJI_MAX } from 'src/modules/conversations/domain/message';

/** Distinct emoji on one message; more is noise on screen and unbounded bytes in every message view. */
export const REACTIONS_PER_MESSAGE_MAX = 20;

/** One emoji of the Unicode RGI set, as a whole grapheme (skin tones, flags, ZWJ sequences). */
const RGI_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');
/**
 * An emoji id as emoji pickers name them (`+1`, `heart`, `tada`, `flag-fr`, a custom emoji's
 * name): letters of any script, digits, `_`, `+`, `-`; bare (Dust's form) or as a `:shortcode:`.
 */
const EMOJI_ID = new RegExp(`^[\\p{L}\\p{N}_+-]{1,${EMOJI_MAX}}$`, 'u');
const SHORTCODE = new RegExp(`^:([\\p{L}\\p{N}_+-]{1,${EMOJI_MAX - 2}}):$`, 'u');
const EMOJI_PRESENTATION = '\uFE0F';

/**
 * The reaction as stored: an RGI emoji, the text form of one (`❤` is kept as `❤️`), or an emoji id,
 * a `:shortcode:` kept as its bare id (`:+1:` and `+1` are one reaction). Null for anything else,
 * and for an id holding a character names refuse (letters that show nothing, such as U+3164).
 */
export function canonicalEmoji(input: string): string | null {
  if (RGI_EMOJI.test(input)) return input;
  const withPresentation = input + EMOJI_PRESENTATION;
  if ([...input].length === 1 && RGI_EMOJI.test(withPresentation)) return withPresentation;
  const id = SHORTCODE.exec(input)?.[1] ?? (EMOJI_ID.test(input) ? input : null);
  return id !== null && nameCharacterProblem(id) === null ? id : null;
}

/** The stored form of `input`, or a 400 naming `field` (the body key the reaction came in). */
export function parseEmoji(input: string, field: 'emoji' | 'reaction'): string {
  const emoji = canonicalEmoji(input);
  if (emoji === null) {
    throw new InvalidRequestError(
      `${field}: must be one emoji (e.g. "👍"), an emoji id (e.g. "+1", "heart") or a :shortcode: (e.g. ":tada:"), ` +
        `at most ${EMOJI_MAX} characters of letters, digits, _ + -.`,
    );
  }
  return emoji;
}

/** A reaction with an emoji already on the message is always taken; a new emoji only under the cap. */
export function checkNewReaction(emoji: string, emojisOnMessage: readonly string[]): void {
  if (emojisOnMessage.includes(emoji) || emojisOnMessage.length < REACTIONS_PER_MESSAGE_MAX) return;
  throw new InvalidRequestError(
    `reaction: this message already has ${REACTIONS_PER_MESSAGE_MAX} different reactions; react with one of them.`,
  );
}

/** A reaction as a request names it: Dust's `reaction` or this service's `emoji`, exactly one. */
export interface ReactionInput {
  emoji?: string;
  reaction?: string;
}

/** The given reaction with the key it came in, or a 400 when both or neither are given. */
export function givenReaction(input: ReactionInput): { field: 'emoji' | 'reaction'; value: string } {
  if (input.emoji !== undefined && input.reaction === undefined)
    return { field: 'emoji', value: input.emoji };
  if (input.reaction !== undefined && input.emoji === undefined)
    return { field: 'reaction', value: input.reaction };
  throw new InvalidRequestError('emoji, reaction: give exactly one of them.');
}
