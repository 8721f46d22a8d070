import type { NextFunction, Request, Response } from 'express';
import { json } from 'express';
import { errorEnvelope } from 'src/platform/errors/error-envelope';
import { UNSTORABLE_TEXT_MESSAGE, isStorableText } from 'src/platform/http/storable-text';

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * Far deeper than any request body of the API. Validation transforms bodies recursively, so a
 * body nested thousands of levels deep would exhaust the stack: it is refused before.
 */
export const JSON_MAX_DEPTH = 32;

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

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

/**
 * express.json with failures answered in the API envelope: the parser runs before any Nest
 * filter exists for the request, so it reports its own errors.
 */
export function jsonBodyParser() {
  const parse = json({ limit: JSON_BODY_LIMIT_BYTES, type: ['application/json', 'application/*+json'] });
  return (req: Request, res: Response, next: NextFunction): void => {
    parse(req, res, (error?: BodyParserError) => {
      if (!error) {
        const problem = bodyProblem(req.body);
        if (problem === null) return next();
        res.status(400).json(errorEnvelope('invalid_request_error', problem));
        return;
      }
      if (error.type === 'entity.too.large') {
        res
          .status(413)
          .json(
            errorEnvelope(
              'payload_too_large',
              `The JSON body exceeds the limit of ${JSON_BODY_LIMIT_BYTES} bytes.`,
            ),
          );
        return;
      }
      if (error.type === 'entity.parse.failed') {
        res.status(400).json(errorEnvelope('invalid_request_error', 'The request body is not valid JSON.'));
        return;
      }
      if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
        res.status(415).json(errorEnvelope('unsupported_media_type', error.message));
        return;
      }
      res
        .status(error.status && error.status < 500 ? error.status : 400)
        .json(errorEnvelope('invalid_request_error', 'The request body could not be read.'));
    });
  };
}
