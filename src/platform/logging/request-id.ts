import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request as the edge leaves it for the logger and the error filter: with its id. */
export interface IdentifiedRequest extends IncomingMessage {
  id: string;
}

/** Keeps a caller's X-Request-Id when it is sane, otherwise makes one. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Every answer names its request, so a client can quote it and the logs (which read `req.id`) find it. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): void {
  const id = requestId(req);
  (req as IdentifiedRequest).id = id;
  res.setHeader('X-Request-Id', id);
}
