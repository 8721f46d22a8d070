import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError, RateLimitError } from 'src/platform/errors/domain-error';
import type { ErrorType } from 'src/platform/errors/error-envelope';
import { errorAnswerOf } from 'src/platform/http/error-answers';
import { sendError } from 'src/platform/http/send-json';

/** The type of what Nest or the HTTP layer answers with a status of its own. */
const TYPE_BY_HTTP_STATUS: Record<number, ErrorType> = {
  400: 'invalid_request_error',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limit_error',
  503: 'service_unavailable',
};

/** What the HTTP layer reports about the request itself (the client went away mid-body): a 4xx. */
function clientFault(exception: unknown): number | null {
  const error = exception as { statusCode?: unknown; status?: unknown } | null;
  const status = error?.statusCode ?? error?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

function httpExceptionMessage(exception: HttpException): string {
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string') return message;
  return exception.message;
}

const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

/** The database cannot be reached (restarting, down, or the pool waited too long): retrying may work. */
function isDatabaseUnavailable(exception: unknown): boolean {
  const error = exception as {
    code?: string;
    syscall?: string;
    message?: string;
    driverError?: { code?: string; syscall?: string };
  };
  const code = error.driverError?.code ?? error.code;
  if (code && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
  // A server down removes its Unix socket: connecting to it then fails with ENOENT, not ECONNREFUSED.
  if (code === 'ENOENT' && (error.driverError?.syscall ?? error.syscall) === 'connect') return true;
  const message = error.message ?? '';
  return /timeout exceeded when trying to connect|Connection terminated|connection is closed/i.test(message);
}

/** The one place where failures become `{"error":{"type","message"}}`. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<ServerResponse>();
    const { status, type, message } = this.describe(
      exception,
      http.getRequest<IncomingMessage & { id?: string }>().id,
    );
    if (res.headersSent) {
      // A stream already started: the status line is gone, so the best we can do is end it.
      res.end();
      return;
    }
    if (exception instanceof RateLimitError) {
      res.setHeader('Retry-After', String(exception.retryAfterSeconds));
    }
    sendError(res, status, type, message);
  }

  private describe(
    exception: unknown,
    reqId: string | undefined,
  ): { status: number; type: ErrorType; message: string } {
    if (exception instanceof DomainError) {
      return { ...errorAnswerOf(exception.code), message: exception.message };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const type = TYPE_BY_HTTP_STATUS[status] ?? (status < 500 ? 'invalid_request_error' : undefined);
      if (type) return { status, type, message: httpExceptionMessage(exception) };
    }
    const clientStatus = clientFault(exception);
    if (clientStatus !== null) {
      return {
        status: clientStatus,
        type: TYPE_BY_HTTP_STATUS[clientStatus] ?? 'invalid_request_error',
        message: 'The request could not be read to its end.',
      };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn({ err: exception, reqId }, 'Database unavailable');
      return {
        status: 503,
        type: 'service_unavailable',
        message: 'The service cannot reach its database; retry shortly.',
      };
    }
    this.logger.error(
      { err: exception, reqId },
      exception instanceof Error ? exception.message : 'Unexpected non-error exception',
    );
    return {
      status: 500,
      type: 'internal_server_error',
      message: 'An unexpected error occurred. The request id identifies it in the logs.',
    };
  }
}
