import type { ServerResponse } from 'node:http';
import { errorEnvelope, ErrorType } from 'src/platform/errors/error-envelope';

/**
 * A JSON answer written on Node's response in one `end`: what Express's `res.json` does, without
 * its per-call settings look-ups, charset parsing and freshness check.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

export function sendError(res: ServerResponse, status: number, type: ErrorType, message: string): void {
  sendJson(res, status, errorEnvelope(type, message));
}
