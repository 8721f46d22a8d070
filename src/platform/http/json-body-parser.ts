import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { ConfigToken } from 'src/platform/config/config-schema';
import { DomainError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { UNSTORABLE_TEXT_MESSAGE, isStorableText } from 'src/platform/http/storable-text';

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** A context's configuration object, by its class. */
export type ConfigReader = <T>(token: ConfigToken<T>) => T;

/** The body types (DTO classes) allowed more than JSON_BODY_LIMIT_BYTES, with their limit. */
const LARGER_BODIES = new WeakMap<object, (read: ConfigReader) => number>();

/**
 * Lets the routes that take this body type read up to `limit(config)` bytes, `config` being the
 * configuration `token` stands for (a document's text can be megabytes); every other body stays
 * within JSON_BODY_LIMIT_BYTES. The other protections (depth, array items, value count) hold
 * whatever the size.
 */
export function JsonBodyLimit<T>(token: ConfigToken<T>, limit: (config: T) => number): ClassDecorator {
  return (target) => void LARGER_BODIES.set(target, (read) => limit(read(token)));
}

/** The byte limit of a body validated as `metatype`. */
export function jsonBodyLimitOf(metatype: unknown, read: ConfigReader): number {
  const larger = typeof metatype === 'function' ? LARGER_BODIES.get(metatype) : undefined;
  return larger ? Math.max(JSON_BODY_LIMIT_BYTES, larger(read)) : JSON_BODY_LIMIT_BYTES;
}
/**
 * Far deeper than any request body of the API. Validation transforms bodies recursively, so a
 * body nested thousands of levels deep would exhaust the stack: it is refused before.
 */
export const JSON_MAX_DEPTH = 32;
/**
 * Validation transforms and checks a body element by element, so its cost follows the number of
 * values, not bytes: 330,000 `{}` fit in 1 MiB and held the event loop for seconds. No array of
 * the API takes more than 1,000 items (each DTO has its own, smaller cap), and no body needs more
 * than 10,000 values; both are refused on the parsed JSON, before any transformation.
 */
export const JSON_MAX_ARRAY_ITEMS = 1000;
export const JSON_MAX_VALUES = 10_000;
/** Keys that name an object's prototype machinery, never a field of the API. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * What makes a parsed body unusable although it is valid JSON: nesting deeper than the limit, an
 * array or a value count over its limit, a prototype key, or text PostgreSQL cannot store (named
 * by its path). One iterative walk, so any depth is safe; it stops at the first problem.
 */
function bodyProblem(body: unknown): string | null {
  if (body === null || typeof body !== 'object') return null;
  const pending: [object, number, string][] = [[body, 1, '']];
  let values = 1;
  while (pending.length > 0) {
    const [node, depth, path] = pending.pop()!;
    if (depth > JSON_MAX_DEPTH) return `The JSON body is nested deeper than ${JSON_MAX_DEPTH} levels.`;
    const isArray = Array.isArray(node);
    if (isArray && node.length > JSON_MAX_ARRAY_ITEMS) {
      return `${path || 'The JSON body'}: an array takes at most ${JSON_MAX_ARRAY_ITEMS} items; got ${node.length}.`;
    }
    const keys = isArray ? null : Object.keys(node);
    values += isArray ? node.length : keys!.length;
    if (values > JSON_MAX_VALUES) return `The JSON body holds more than ${JSON_MAX_VALUES} values.`;
    const size = isArray ? node.length : keys!.length;
    for (let index = 0; index < size; index++) {
      const key = isArray ? String(index) : keys![index];
      const child: unknown = (node as Record<string, unknown>)[key];
      const at = () => (path ? `${path}.${key}` : key);
      if (!isArray && FORBIDDEN_KEYS.has(key)) return `${at()}: property ${key} should not exist.`;
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
export function refusedEncoding(headers: IncomingHttpHeaders): string | null {
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

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The JSON body as the routes see it; an empty body is an empty object, as if `{}` had been sent. */
export function parseJsonBody(headers: IncomingHttpHeaders, bytes: Uint8Array): unknown {
  const refusal = refusedEncoding(headers);
  if (refusal !== null) throw new DomainError('unsupported_media_type', refusal);
  let text: string;
  try {
    // Invalid UTF-8 is refused, not silently replaced by U+FFFD.
    text = UTF8.decode(bytes);
  } catch {
    throw new InvalidRequestError('The JSON body is not valid UTF-8.');
  }
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

/**
 * A body that is not JSON, left unread: the route that takes a JSON body refuses it with 415 (see
 * validation.ts), and a route that reads its body itself (an upload) streams it from the request.
 */
export class UnreadBody {
  constructor(readonly contentType: string | undefined) {}

  refusal(): DomainError {
    return new DomainError(
      'unsupported_media_type',
      this.contentType === undefined
        ? 'The body must be JSON, sent with Content-Type: application/json; it had no Content-Type.'
        : `The body must be JSON, sent with Content-Type: application/json; got "${this.contentType}".`,
    );
  }
}

export interface RequestWithBody extends IncomingMessage {
  body?: unknown;
}

function hasBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function tooLarge(limitBytes: number): DomainError {
  return new DomainError('payload_too_large', `The JSON body exceeds the limit of ${limitBytes} bytes.`);
}

/** The client went away mid-body: a client fault (4xx), though nobody is left to answer. */
function cutShort(): Error {
  return Object.assign(new Error('The request body was cut short.'), { statusCode: 400 });
}

/**
 * A JSON body not read yet. It is read only by a route that takes one (the validation pipe of
 * `@Body()`, after authentication), so a request without a valid key, or to a route without a
 * body, never has its body read or parsed; Node discards it once the answer is sent.
 */
export class PendingJsonBody {
  constructor(private readonly req: IncomingMessage) {}

  read(limitBytes = JSON_BODY_LIMIT_BYTES): Promise<unknown> {
    return this.readBytes(limitBytes).then((bytes) => parseJsonBody(this.req.headers, bytes));
  }

  /**
   * The body's bytes as sent, read against `limitBytes` as they arrive: for a route that must see
   * them unparsed (a signature over the raw body) before it parses them with `parseJsonBody`.
   */
  readBytes(limitBytes = JSON_BODY_LIMIT_BYTES): Promise<Buffer> {
    const { req } = this;
    const { headers } = req;
    if (Number(headers['content-length'] ?? 0) > limitBytes) return Promise.reject(tooLarge(limitBytes));
    const refusal = refusedEncoding(headers);
    if (refusal !== null) return Promise.reject(new DomainError('unsupported_media_type', refusal));
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const onData = (chunk: Buffer) => {
        received += chunk.length;
        if (received <= limitBytes) return void chunks.push(chunk);
        stop();
        reject(tooLarge(limitBytes));
      };
      const onEnd = () => {
        stop();
        resolve(Buffer.concat(chunks, received));
      };
      const onAborted = () => {
        stop();
        reject(cutShort());
      };
      const stop = () => {
        req.off('data', onData).off('end', onEnd).off('error', onAborted).off('aborted', onAborted);
      };
      req.on('data', onData).once('end', onEnd).once('error', onAborted).once('aborted', onAborted);
    });
  }
}

/**
 * What the routes find as the body before they read it: `{}` when the request has none, a
 * PendingJsonBody for JSON, an UnreadBody for anything else. Nothing is read here.
 */
export function pendingBody(req: RequestWithBody): void {
  const { headers } = req;
  if (!hasBody(headers)) req.body = {};
  else if (JSON_TYPE.test(headers['content-type'] ?? '')) req.body = new PendingJsonBody(req);
  else req.body = new UnreadBody(headers['content-type']);
}
