import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Largest multiple of 62 below 256: bytes at or above it are dropped so every character is equally likely. */
const UNBIASED_LIMIT = 248;

export const SID_LENGTH = 10;

export type SIdPrefix =
  | 'fil'
  | 'vlt'
  | 'dts'
  | 'dsv'
  | 'wku'
  | 'amf'
  | 'key'
  | 'tag'
  | 'skl'
  | 'msv'
  | 'mcp'
  | 'wsp'
  | 'usr'
  | 'act'
  | 'trg'
  | 'whs'
  | 'whv';

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= UNBIASED_LIMIT) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A plain sId: 10 random base62 characters (agents, conversations, messages). */
export function generateSId(): string {
  return randomBase62(SID_LENGTH);
}

/** A prefixed sId such as `fil_…` or `vlt_…`. */
export function generatePrefixedSId(prefix: SIdPrefix): string {
  return `${prefix}_${randomBase62(SID_LENGTH)}`;
}
