import { describe, expect, it } from '@jest/globals';
import {
  REACTIONS_PER_MESSAGE_MAX,
  canonicalEmoji,
  checkNewReaction,
  parseEmoji,
} from 'src/modules/conversations/domain/reaction';

describe('reaction emoji', () => {
  it.each(['👍', '👍🏽', '❤️', '👨‍👩‍👧', '🏳️‍🌈', '🇫🇷', '1️⃣', ':thumbsup:', ':+1:', ':white_check_mark:'])(
    'takes %s as it is',
    (emoji) => {
      expect(canonicalEmoji(emoji)).toBe(emoji);
    },
  );

  it('stores the text form of an emoji in its emoji form, so both are one reaction', () => {
    expect(canonicalEmoji('❤')).toBe('❤️');
    expect(canonicalEmoji('☺')).toBe('☺️');
  });

  it.each([
    'a',
    'ok',
    '1',
    '👍👍',
    'x👍',
    '👍 ',
    ':thumbs up:',
    '::',
    ':Thumbsup:',
    `:${'a'.repeat(63)}:`,
    '\u200b',
    '',
  ])('refuses %j', (input) => {
    expect(canonicalEmoji(input)).toBeNull();
    expect(() => parseEmoji(input)).toThrow(/^emoji: must be one emoji/);
  });

  it(`takes at most ${REACTIONS_PER_MESSAGE_MAX} different emoji on a message, and more of those`, () => {
    const full = Array.from({ length: REACTIONS_PER_MESSAGE_MAX }, (_, i) => `:e${i}:`);
    expect(() => checkNewReaction(':new:', full.slice(1))).not.toThrow();
    expect(() => checkNewReaction(':e3:', full)).not.toThrow();
    expect(() => checkNewReaction(':new:', full)).toThrow(/already has 20 different reactions/);
  });
});
