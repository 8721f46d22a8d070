import type { onRequestHookHandler } from 'fastify';
import { errorEnvelope } from 'src/platform/errors/error-envelope';

/** U+0000, or a UTF-16 surrogate without its pair: PostgreSQL's text refuses the first, jsonb both. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this looks for.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain a NUL character or an unpaired UTF-16 surrogate.';

/**
 * Percent-decoding turns `%00` into U+0000 in path parameters and query values; refused before
 * any route, since no identifier or parameter of the API contains it.
 */
export const refuseNulInUrl: onRequestHookHandler = (request, reply, done) => {
  if (!request.url.includes('%00')) return done();
  void reply
    .code(400)
    .send(errorEnvelope('invalid_request_error', 'The URL must not contain a NUL character (%00).'));
};
