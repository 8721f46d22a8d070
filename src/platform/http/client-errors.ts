import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorEnvelope } from 'src/platform/errors/error-envelope';

/** Node's own answers to requests it cannot parse, by error code; anything else is a 400. */
const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: 'The request line and headers are too large; send long values in the body.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time.' },
};

/**
 * Requests Node's HTTP parser refuses (an over-long URL or header, a malformed request line) never
 * reach the router; this answers them on the socket with the API's error envelope (the HTTP
 * server's `clientError` handler).
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, message } = CLIENT_ERRORS[error.code ?? ''] ?? {
    status: 400,
    message: 'The request could not be parsed as HTTP.',
  };
  const body = JSON.stringify(errorEnvelope('invalid_request_error', message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/**
 * Requests the router refuses before any hook runs (a malformed percent-escape in the path), as
 * Fastify's `frameworkErrors`: the envelope and the request id, not Fastify's own body.
 */
export function answerRoutingError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 400;
  const message =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The URL is not valid: "%" must start an escape such as %2F.'
      : `The request could not be routed: ${error.message}`;
  void reply
    .code(status)
    .header('X-Request-Id', request.id)
    .send(errorEnvelope('invalid_request_error', message));
}
