import { InvalidRequestError } from 'src/platform/errors/domain-error';

/** Distinct emoji on one message; more is noise on screen and unbounded bytes in every message view. */
export const REACTIONS_PER_MESSAGE_MAX = 20;

/** One emoji of the Unicode RGI set, as a whole grapheme (skin tones, flags, ZWJ sequences). */
const RGI_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');
/** A `:shortcode:` as chat clients write one (`:+1:`, `:white_check_mark:`), 64 characters at most. */
const SHORTCODE = /^:[a-z0-9_+-]{1,62}:$/;
const EMOJI_PRESENTATION = '\uFE0F';

/**
 * The emoji as stored: an RGI emoji, the text form of one (`❤` is kept as `❤️`, so both are one
 * reaction), or a shortcode. Null for anything else.
 */
export function canonicalEmoji(input: string): string | null {
  if (SHORTCODE.test(input) || RGI_EMOJI.test(input)) return input;
  const withPresentation = input + EMOJI_PRESENTATION;
  if ([...input].length === 1 && RGI_EMOJI.test(withPresentation)) return withPresentation;
  return null;
}

export function parseEmoji(input: string): string {
  const emoji = canonicalEmoji(input);
  if (emoji === null) {
    throw new InvalidRequestError(
      'emoji: must be one emoji (e.g. "👍") or a :shortcode: (e.g. ":thumbsup:").',
    );
  }
  return emoji;
}

/** A reaction with an emoji already on the message is always taken; a new emoji only under the cap. */
export function checkNewReaction(emoji: string, emojisOnMessage: readonly string[]): void {
  if (emojisOnMessage.includes(emoji) || emojisOnMessage.length < REACTIONS_PER_MESSAGE_MAX) return;
  throw new InvalidRequestError(
    `emoji: this message already has ${REACTIONS_PER_MESSAGE_MAX} different reactions; react with one of them.`,
  );
}
