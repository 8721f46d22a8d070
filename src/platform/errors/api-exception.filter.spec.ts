import { beforeAll, describe, expect, it } from '@jest/globals';
import { ArgumentsHost, Logger, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { types } from 'node:util';
import { Client } from 'pg';
import { ApiExceptionFilter } from 'src/platform/errors/api-exception.filter';
import { DomainError, ForbiddenError, RateLimitError } from 'src/platform/errors/domain-error';
import { freePort } from 'src/platform/net/free-port';
import { QueryFailedError } from 'typeorm';

interface Answer {
  status: number;
  body: unknown;
  /** Only when the filter sent one. */
  retryAfter?: string;
}

/** Runs the filter on `exception` and returns what it answered. */
function answer(exception: unknown): Answer {
  const sent: Partial<Answer> = {};
  const response = {
    headersSent: false,
    statusCode: 200,
    setHeader(name: string, value: string) {
      if (name === 'Retry-After') sent.retryAfter = value;
      return this;
    },
    end(json: string) {
      sent.status = this.statusCode;
      sent.body = JSON.parse(json);
    },
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => response, getRequest: () => ({ id: 'req-1' }) }),
  } as unknown as ArgumentsHost;
  new ApiExceptionFilter().catch(exception, host);
  return sent as Answer;
}

const unavailable = {
  status: 503,
  body: { error: { type: 'service_unavailable', message: expect.stringMatching(/database/) } },
};

function queryFailed(code: string, message: string): QueryFailedError {
  return new QueryFailedError('SELECT 1', [], Object.assign(new Error(message), { code }));
}

describe('ApiExceptionFilter and an unreachable database', () => {
  // Each spec file has its own module registry: silencing the logs here affects no other file.
  beforeAll(() => {
    Logger.overrideLogger(false);
  });

  it('answers 503 when the driver cannot connect (nothing listens on the port)', async () => {
    const client = new Client({
      host: '127.0.0.1',
      // Nothing listens on a port freePort gave back.
      port: await freePort(),
      connectionTimeoutMillis: 5_000,
    });
    const refused = await client.connect().then(
      () => null,
      (error: unknown) => error,
    );
    // The socket's error comes from Node itself, outside Jest's sandbox realm: not its `Error`.
    expect(types.isNativeError(refused)).toBe(true);
    expect(answer(refused)).toEqual(unavailable);
  });

  it('answers 503 when the Unix socket is gone (the server is down)', async () => {
    const emptyDir = await mkdtemp(join(tmpdir(), 'wa-no-server-'));
    const client = new Client({ host: emptyDir, port: 5432 });
    const missing = await client.connect().then(
      () => null,
      (error: unknown) => error,
    );
    await rm(emptyDir, { recursive: true });
    expect(missing).toMatchObject({ code: 'ENOENT', syscall: 'connect' });
    expect(answer(missing)).toEqual(unavailable);
  });

  it('answers 503 for the server shutting down, starting up or a lost connection', () => {
    for (const exception of [
      queryFailed('57P01', 'terminating connection due to administrator command'),
      queryFailed('57P03', 'the database system is starting up'),
      queryFailed('08006', 'connection failure'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated due to connection timeout'),
    ]) {
      expect(answer(exception)).toEqual(unavailable);
    }
  });

  it('keeps other database failures as 500, domain errors and HTTP exceptions as they are', () => {
    expect(answer(queryFailed('23505', 'duplicate key value violates unique constraint'))).toEqual({
      status: 500,
      body: { error: { type: 'internal_server_error', message: expect.any(String) } },
    });
    expect(answer(new Error('boom')).status).toBe(500);
    // A missing file is not a missing database server.
    expect(answer(Object.assign(new Error('no such file'), { code: 'ENOENT', syscall: 'open' })).status).toBe(
      500,
    );
    expect(answer(new DomainError('conversation_not_found', 'No such conversation.'))).toEqual({
      status: 404,
      body: { error: { type: 'conversation_not_found', message: 'No such conversation.' } },
    });
    expect(answer(new NotFoundException('Cannot GET /nowhere'))).toEqual({
      status: 404,
      body: { error: { type: 'not_found', message: 'Cannot GET /nowhere' } },
    });
    // A client that goes away mid-body: the HTTP layer reports it with a 4xx status, not a database fault.
    expect(answer(Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 }))).toEqual({
      status: 400,
      body: {
        error: { type: 'invalid_request_error', message: 'The request could not be read to its end.' },
      },
    });
    expect(answer(new ServiceUnavailableException()).body).toEqual({
      error: { type: 'service_unavailable', message: expect.any(String) },
    });
  });
});

describe('ApiExceptionFilter and domain errors', () => {
  it('answers each with the status and type of its code, and its own message', () => {
    expect(answer(new ForbiddenError('Only the author of a message can edit it.'))).toEqual({
      status: 403,
      body: { error: { type: 'workspace_auth_error', message: 'Only the author of a message can edit it.' } },
    });
    expect(
      answer(new DomainError('workspace_auth_error', 'The API key cannot access this workspace.')),
    ).toEqual({
      status: 401,
      body: { error: { type: 'workspace_auth_error', message: 'The API key cannot access this workspace.' } },
    });
    expect(
      answer(
        new DomainError('refused_in_current_state', 'This conversation already has a scheduled wake-up.'),
      ),
    ).toEqual({
      status: 409,
      body: {
        error: {
          type: 'invalid_request_error',
          message: 'This conversation already has a scheduled wake-up.',
        },
      },
    });
  });

  it('tells a rate-limited caller when to retry', () => {
    expect(answer(new RateLimitError('Too many requests for this API key.', 7))).toEqual({
      status: 429,
      retryAfter: '7',
      body: { error: { type: 'rate_limit_error', message: 'Too many requests for this API key.' } },
    });
  });
});
