import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { DomainError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { sendError } from 'src/platform/http/send-json';
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

/** Node discards the rest of the body once the answer is sent, keeping the connection usable. */
function tooLarge(res: ServerResponse): void {
  sendError(
    res,
    413,
    'payload_too_large',
    `The JSON body exceeds the limit of ${JSON_BODY_LIMIT_BYTES} bytes.`,
  );
}

function refuse(res: ServerResponse, error: unknown): void {
  if (error instanceof DomainError) sendError(res, error.status, error.code, error.message);
  else throw error;
}

/**
 * Reads and parses JSON bodies (up to JSON_BODY_LIMIT_BYTES) on Node's request, answering its own
 * refusals in the envelope; `next` once `req.body` is set. A request without a body gets `{}`; any
 * other body is left unread.
 */
export function readJsonBody(req: RequestWithBody, res: ServerResponse, next: () => void): void {
  const { headers } = req;
  if (!hasBody(headers)) {
    req.body = {};
    return next();
  }
  if (!JSON_TYPE.test(headers['content-type'] ?? '')) {
    req.body = new UnreadBody(headers['content-type']);
    return next();
  }
  const declared = Number(headers['content-length'] ?? 0);
  if (declared > JSON_BODY_LIMIT_BYTES) return tooLarge(res);
  const refusal = refusedEncoding(headers);
  if (refusal !== null) return sendError(res, 415, 'unsupported_media_type', refusal);

  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > JSON_BODY_LIMIT_BYTES) {
      settled = true;
      req.off('data', onData);
      tooLarge(res);
      return;
    }
    chunks.push(chunk);
  };
  req.on('data', onData);
  req.once('end', () => {
    if (settled) return;
    settled = true;
    try {
      req.body = parseJsonBody(headers, Buffer.concat(chunks, received).toString('utf8'));
    } catch (error) {
      return refuse(res, error);
    }
    next();
  });
  // The client went away mid-body: there is nobody to answer, and nothing was done.
  req.once('error', () => {
    settled = true;
    res.statusCode = 400;
    res.destroy();
  });
}
