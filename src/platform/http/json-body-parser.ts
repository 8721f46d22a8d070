import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { DomainError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { UNSTORABLE_TEXT_MESSAGE, isStorableText } from 'src/platform/http/storable-text';

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * Far deeper than any request body of the API. Validation transforms bodies recursively, so a
 * body nested thousands of levels deep would exhaust the stack: it is refused before.
 */
export const JSON_MAX_DEPTH = 32;

/**
 * What makes a parsed body unusable although it is valid JSON: nesting deeper than the limit, or
 * text PostgreSQL cannot store (named by its path). One iterative walk, so any depth is safe.
 */
function bodyProblem(body: unknown): string | null {
  if (body === null || typeof body !== 'object') return null;
  const pending: [object, number, string][] = [[body, 1, '']];
  while (pending.length > 0) {
    const [node, depth, path] = pending.pop()!;
    if (depth > JSON_MAX_DEPTH) return `The JSON body is nested deeper than ${JSON_MAX_DEPTH} levels.`;
    const entries: [string, unknown][] = Array.isArray(node)
      ? node.map((child, index): [string, unknown] => [String(index), child])
      : Object.entries(node);
    for (const [key, child] of entries) {
      const at = () => (path ? `${path}.${key}` : key);
      if (!isStorableText(key) || (typeof child === 'string' && !isStorableText(child))) {
        return `${at()}: ${UNSTORABLE_TEXT_MESSAGE}`;
      }
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1, at()]);
    }
  }
  return null;
}

/** application/json and its structured-syntax kin (application/merge-patch+json, …). */
const JSON_TYPE = /^application\/([^;\s]+\+)?json\s*(;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

/** The request's own declarations refuse it before its text is parsed: a charset or an encoding we do not read. */
function refusedEncoding(headers: IncomingHttpHeaders): string | null {
  const charset = CHARSET.exec(headers['content-type'] ?? '')?.[1];
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    return `The JSON body must be UTF-8; got charset "${charset}".`;
  }
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    return `The request body must not be compressed; got Content-Encoding "${encoding}".`;
  }
  return null;
}

/** The JSON body as the routes see it; an empty body is an empty object, as if `{}` had been sent. */
export function parseJsonBody(headers: IncomingHttpHeaders, text: string): unknown {
  const refusal = refusedEncoding(headers);
  if (refusal !== null) throw new DomainError('unsupported_media_type', refusal);
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InvalidRequestError('The request body is not valid JSON.');
  }
  if (body === null || typeof body !== 'object') {
    throw new InvalidRequestError('The JSON body must be an object or an array.');
  }
  const problem = bodyProblem(body);
  if (problem !== null) throw new InvalidRequestError(problem);
  return body;
}

interface BodyRouteConfig {
  streamsBody?: boolean;
}

/** The route reads its body itself from the Node request (an upload); any content type reaches it unread. */
export const StreamsBody = () => RouteConfig({ streamsBody: true } satisfies BodyRouteConfig);

/** A body that is not JSON is left unread for a route that streams it, or one that does not exist (404). */
function mayPassUnread(request: FastifyRequest): boolean {
  return (
    request.is404 ||
    request.headers['content-length'] === '0' ||
    (request.routeOptions.config as BodyRouteConfig).streamsBody === true
  );
}

/**
 * JSON bodies (up to JSON_BODY_LIMIT_BYTES) are parsed here, failures thrown as API errors so the
 * exception filter answers them. Any other body is refused with 415, except on routes marked
 * @StreamsBody(), which read it from the request themselves.
 */
export function registerBodyParsers(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    JSON_TYPE,
    { parseAs: 'string', bodyLimit: JSON_BODY_LIMIT_BYTES },
    (request, text: string | Buffer, done) => {
      try {
        done(null, parseJsonBody(request.headers, text.toString()));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  fastify.addContentTypeParser('*', (request, _payload, done) => {
    if (mayPassUnread(request)) return done(null);
    const type = request.headers['content-type'];
    done(
      new DomainError(
        'unsupported_media_type',
        type === undefined
          ? 'The body must be JSON, sent with Content-Type: application/json; it had no Content-Type.'
          : `The body must be JSON, sent with Content-Type: application/json; got "${type}".`,
      ),
      undefined,
    );
  });
}
