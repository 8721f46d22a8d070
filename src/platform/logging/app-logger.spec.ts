import { describe, expect, it } from '@jest/globals';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { AppLogger } from 'src/platform/logging/app-logger';

/** An AppLogger whose JSON lines are kept in memory. */
function capture(level: pino.LevelWithSilent = 'info'): {
  logger: AppLogger;
  lines: () => Record<string, unknown>[];
} {
  const written: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      done();
    },
  });
  const logger = new AppLogger(pino({ level }, sink));
  return {
    logger,
    lines: () =>
      written
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** A request/response pair as Node hands them over, closed by the test. */
function exchange(url: string): { req: IncomingMessage; res: ServerResponse & EventEmitter } {
  const req = { id: 'req-7', method: 'GET', url } as unknown as IncomingMessage;
  const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: true });
  return { req, res: res as unknown as ServerResponse & EventEmitter };
}

describe('AppLogger', () => {
  it('writes one access line per request, with its id, method, URL and status, at the level of the status', () => {
    const { logger, lines } = capture();
    for (const [url, status] of [
      ['/api/w/w1/files/f1', 200],
      ['/nowhere', 404],
      ['/boom', 500],
    ] as const) {
      const { req, res } = exchange(url);
      logger.logRequest(req, res);
      res.statusCode = status;
      res.emit('close');
    }
    expect(lines().map(({ level, req, res, msg }) => ({ level, req, res, msg }))).toEqual([
      {
        level: 30,
        req: { id: 'req-7', method: 'GET', url: '/api/w/w1/files/f1' },
        res: { statusCode: 200, finished: true },
        msg: 'request completed',
      },
      {
        level: 40,
        req: { id: 'req-7', method: 'GET', url: '/nowhere' },
        res: { statusCode: 404, finished: true },
        msg: 'request completed',
      },
      {
        level: 50,
        req: { id: 'req-7', method: 'GET', url: '/boom' },
        res: { statusCode: 500, finished: true },
        msg: 'request completed',
      },
    ]);
  });

  it('never writes the signature of a signed URL', () => {
    const { logger, lines } = capture();
    const { req, res } = exchange('/api/w/w1/files/f1?expires=1&signature=c2VjcmV0&x=1');
    logger.logRequest(req, res);
    res.emit('close');
    expect(lines()[0].req).toEqual({
      id: 'req-7',
      method: 'GET',
      url: '/api/w/w1/files/f1?expires=1&signature=[Redacted]&x=1',
    });
    expect(JSON.stringify(lines())).not.toContain('c2VjcmV0');
  });

  it('says when the client left before the answer, and writes nothing below its level', () => {
    const { logger, lines } = capture('warn');
    const left = exchange('/api/sse/w/w1/assistant/conversations/c1/events');
    logger.logRequest(left.req, left.res);
    Object.assign(left.res, { statusCode: 400, writableFinished: false });
    left.res.emit('close');
    const fine = exchange('/healthz');
    logger.logRequest(fine.req, fine.res);
    fine.res.emit('close');
    expect(lines().map(({ level, msg }) => ({ level, msg }))).toEqual([
      { level: 40, msg: 'request aborted' },
    ]);
  });

  it("maps Nest's logger calls: context last, an object first as pino's merge object, an error with its stack", () => {
    const { logger, lines } = capture('debug');
    const failure = new Error('pool exhausted');
    logger.log('Mapped {/healthz, GET} route', 'RouterExplorer');
    logger.error('Unable to connect', 'Error: ECONNREFUSED\n    at connect', 'TypeOrmModule');
    logger.debug(failure, 'Runtime');
    // As Nest's Logger calls it for `new Logger('Files').warn({ err, file }, 'text')`.
    logger.warn({ err: failure, file: 'fil_1' }, 'Reading the content of a file failed', 'Files');
    const written = lines().map(({ level, context, msg, stack, file, err }) => ({
      level,
      context,
      msg,
      stack,
      file,
      err: (err as { message?: string } | undefined)?.message,
    }));
    expect(written).toEqual([
      { level: 20, context: 'RouterExplorer', msg: 'Mapped {/healthz, GET} route' },
      {
        level: 50,
        context: 'TypeOrmModule',
        msg: 'Unable to connect',
        stack: 'Error: ECONNREFUSED\n    at connect',
      },
      { level: 20, context: 'Runtime', msg: 'pool exhausted', err: 'pool exhausted' },
      {
        level: 40,
        context: 'Files',
        msg: 'Reading the content of a file failed',
        file: 'fil_1',
        err: 'pool exhausted',
      },
    ]);
  });

  it("keeps Nest's start-up narration below info, and every other log call at info", () => {
    const { logger, lines } = capture('info');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Mapped {/healthz, GET} route', 'RouterExplorer');
    logger.log('HealthController {/}:', 'RoutesResolver');
    logger.log('Nest application successfully started', 'NestApplication');
    logger.log('Resumed 1 agent run(s)', 'AgentRunner');
    expect(lines().map(({ level, context }) => ({ level, context }))).toEqual([
      { level: 30, context: 'AgentRunner' },
    ]);
  });
});
