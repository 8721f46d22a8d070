import { describe, expect, it } from '@jest/globals';
import { isStorableText } from 'src/platform/http/storable-text';

describe('isStorableText', () => {
  it('accepts any text PostgreSQL can store, surrogate pairs included', () => {
    for (const text of [
      '',
      'plain',
      'é à ü',
      '\u{1f4a5} emoji',
      '\ud83d\ude00',
      'tab\tnew\nline',
      '\uffff',
    ]) {
      expect({ text, storable: isStorableText(text) }).toEqual({ text, storable: true });
    }
  });

  it('refuses NUL and unpaired surrogates anywhere in the text', () => {
    for (const text of [
      '\u0000',
      'a\u0000b',
      '\ud800',
      'x\udbff',
      '\udc00y',
      'a\udfff\ud800b',
      '\ud83d\ude00\ud83d',
    ]) {
      expect({ text, storable: isStorableText(text) }).toEqual({ text, storable: false });
    }
  });
});
