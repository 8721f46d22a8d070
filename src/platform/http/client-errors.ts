import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorEnvelope } from 'src/platform/errors/error-envelope';
import { pathOf } from 'src/platform/http/path-of';
import { sendError } from 'src/platform/http/send-json';

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
 * reach Express; without a listener Node answers them with an empty body. This answers them with
 * the API's error envelope instead.
 */
export function answerClientErrorsWithEnvelope(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
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
  });
}

/**
 * A path no route can be matched against, refused before routing (true when it answered): a
 * malformed percent-escape, or `%00`, which decodes to U+0000 (no identifier or parameter of the
 * API contains it).
 */
export function refusedMalformedUrl(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '';
  if (!url.includes('%')) return false;
  if (url.includes('%00')) {
    sendError(res, 400, 'invalid_request_error', 'The URL must not contain a NUL character (%00).');
    return true;
  }
  try {
    decodeURIComponent(pathOf(url));
    return false;
  } catch {
    sendError(
      res,
      400,
      'invalid_request_error',
      'The URL is not valid: "%" must start an escape such as %2F.',
    );
    return true;
  }
}
