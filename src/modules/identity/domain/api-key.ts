import { createHash } from 'node:crypto';
import type { Scope } from 'src/platform/auth/scopes';
import { randomBase62 } from 'src/platform/ids/sid';

export interface ApiKey {
  id: number;
  sId: string;
  workspaceId: number;
  userId: number;
  /** sId of the owning user. */
  userSId: string;
  name: string;
  scopes: Scope[];
  /** SHA-256 of the secret, hex; the secret itself is never stored. */
  secretHash: string;
  /** `sk-` and the first characters, so a person can tell keys apart. */
  displayPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export const API_KEY_SECRET = /^sk-[0-9A-Za-z]{32}$/;
export const API_KEY_NAME_MAX = 100;

export function generateApiKeySecret(): string {
  return `sk-${randomBase62(32)}`;
}

export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function displayPrefix(secret: string): string {
  return secret.slice(0, 7);
}
