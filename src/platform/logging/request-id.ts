import type { onRequestHookHandler } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's X-Request-Id when it is sane, otherwise makes one (Fastify's `genReqId`). */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Every answer names its request, so a client can quote it and the logs find it. */
export const echoRequestId: onRequestHookHandler = (request, reply, done) => {
  reply.header('X-Request-Id', request.id);
  done();
};
