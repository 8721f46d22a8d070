import { Writable } from 'node:stream';
import pino from 'pino';

/** A pino logger whose JSON lines a spec reads back. */
export function captureLogs(level: pino.LevelWithSilent = 'info'): {
  logger: pino.Logger;
  lines: () => Record<string, unknown>[];
  text: () => string;
} {
  const written: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      done();
    },
  });
  const text = () => written.join('');
  return {
    logger: pino({ level }, sink),
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
