import { InvalidRequestError } from 'src/platform/errors/domain-error';

/** An opaque cursor for a position in a list (a row id, a rank): services page by position, the wire by cursor. */
export function encodeCursor(value: number): string {
  return Buffer.from(String(value)).toString('base64url');
}

/** The position a cursor of `encodeCursor` holds; anything else is a 400, not a guess. */
export function decodeCursor(cursor: string): number {
  const value = Number(Buffer.from(cursor, 'base64url').toString());
  if (!Number.isSafeInteger(value) || value < -1 || encodeCursor(value) !== cursor) {
    throw new InvalidRequestError('cursor: not a cursor this API returned.');
  }
  return value;
}
