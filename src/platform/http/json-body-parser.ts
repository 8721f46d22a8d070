import type { NextFunction, Request, Response } from 'express';
import { json } from 'express';
import { errorEnvelope } from 'src/platform/errors/error-envelope';

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

/**
 * express.json with failures answered in the API envelope: the parser runs before any Nest
 * filter exists for the request, so it reports its own errors.
 */
export function jsonBodyParser() {
  const parse = json({ limit: JSON_BODY_LIMIT_BYTES, type: ['application/json', 'application/*+json'] });
  return (req: Request, res: Response, next: NextFunction): void => {
    parse(req, res, (error?: BodyParserError) => {
      if (!error) return next();
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
