import { describe, expect, it } from '@jest/globals';
import {
  REACTIONS_PER_MESSAGE_MAX,
  canonicalEmoji,
  checkNewReaction,
  givenReaction,
  parseEmoji,
} from 'src/modules/conversations/domain/reaction';

describe('reaction emoji', () => {
  it.each([
    '👍',
    '👍🏽',
    '❤️',
    '👨‍👩‍👧',
    '🏳️‍🌈',
    '🇫🇷',
    '1️⃣',
    '+1',
    '-1',
    'heart',
    'tada',
    'flag-fr',
    '100',
    'Party_Parrot',
    'café',
  ])('takes %s as it is', (emoji) => {
    expect(canonicalEmoji(emoji)).toBe(emoji);
  });

  it('stores the text form of an emoji in its emoji form, so both are one reaction', () => {
    expect(canonicalEmoji('❤')).toBe('❤️');
    expect(canonicalEmoji('☺')).toBe('☺️');
  });

  it('stores a :shortcode: as its id, so both spellings are one reaction', () => {
    expect(canonicalEmoji(':+1:')).toBe('+1');
    expect(canonicalEmoji(':white_check_mark:')).toBe('white_check_mark');
    expect(canonicalEmoji(`:${'a'.repeat(62)}:`)).toBe('a'.repeat(62));
  });

  it.each([
    '👍👍',
    'x👍',
    '👍 ',
    ':thumbs up:',
    '::',
    ':',
    'thumbs up',
    'a.b',
    '<b>',
    `:${'a'.repeat(63)}:`,
    'a'.repeat(65),
    '\u200b',
    'ok\u200b',
    'ok\u202e',
    'ok\n',
    '\u3164',
    'a\u115f',
    '',
  ])('refuses %j', (input) => {
    expect(canonicalEmoji(input)).toBeNull();
    expect(() => parseEmoji(input, 'reaction')).toThrow(/^reaction: must be one emoji/);
  });

  it('takes the reaction under exactly one of the keys emoji and reaction', () => {
    expect(givenReaction({ reaction: '+1' })).toEqual({ field: 'reaction', value: '+1' });
    expect(givenReaction({ emoji: '👍' })).toEqual({ field: 'emoji', value: '👍' });
    expect(() => givenReaction({})).toThrow('emoji, reaction: give exactly one of them.');
    expect(() => givenReaction({ emoji: '👍', reaction: '+1' })).toThrow(/exactly one/);
  });

  it(`takes at most ${REACTIONS_PER_MESSAGE_MAX} different emoji on a message, and more of those`, () => {
    const full = Array.from({ length: REACTIONS_PER_MESSAGE_MAX }, (_, i) => `e${i}`);
    expect(() => checkNewReaction('new', full.slice(1))).not.toThrow();
    expect(() => checkNewReaction('e3', full)).not.toThrow();
    expect(() => checkNewReaction('new', full)).toThrow(/already has 20 different reactions/);
  });
});
