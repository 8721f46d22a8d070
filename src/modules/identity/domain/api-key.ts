import { createHash } from 'node:crypto';

export const API_KEY_SECRET = /^sk-[0-9A-Za-z]{32}$/;
export const API_KEY_NAME_MAX = 100;

/** The random characters come from the caller, so the rule stays pure. */
export function generateApiKeySecret(randomBase62: (length: number) => string): string {
  return `sk-${randomBase62(32)}`;
}

export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function displayPrefix(secret: string): string {
  return secret.slice(0, 7);
}
