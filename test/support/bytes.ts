import type { Response } from 'supertest';

/** A supertest parser that keeps a body as its bytes, whatever its content type (with `.buffer(true)`). */
export function asBytes(response: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => done(null, Buffer.concat(chunks)));
}
