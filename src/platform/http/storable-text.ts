/** U+0000, or a UTF-16 surrogate without its pair: PostgreSQL's text refuses the first, jsonb both. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this looks for.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain a NUL character or an unpaired UTF-16 surrogate.';
