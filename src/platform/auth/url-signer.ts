import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PlatformConfig } from 'src/platform/config/platform.config';

/** The file under DATA_DIR that keeps the generated secret when URL_SIGNING_SECRET is not set. */
export const SIGNING_SECRET_FILE = 'url-signing-secret';

/** What a valid signature lets through: this method on this path, until `expiresAt`. */
export class SignedUrlGrant {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly expiresAt: Date,
  ) {}
}

export type SignatureCheck = { grant: SignedUrlGrant } | { failure: 'invalid' | 'expired' };

const EXPIRES = /^\d{1,12}$/;

/**
 * Signs URLs so that whoever holds one can call one route without an API key: an HMAC-SHA256
 * over the method, the path and the expiry (seconds since the epoch), both carried in the query.
 */
export class UrlSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(secret, 'utf8');
  }

  /** The query string (`expires=…&signature=…`) that lets `method path` through until `expiresAt`. */
  signQuery(method: string, path: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `expires=${expires}&signature=${this.mac(method, path, expires)}`;
  }

  verify(method: string, path: string, query: Record<string, unknown>, now = new Date()): SignatureCheck {
    const { expires, signature } = query;
    if (typeof expires !== 'string' || !EXPIRES.test(expires) || typeof signature !== 'string') {
      return { failure: 'invalid' };
    }
    const expected = Buffer.from(this.mac(method, path, Number(expires)));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { failure: 'invalid' };
    const expiresAt = new Date(Number(expires) * 1000);
    if (expiresAt <= now) return { failure: 'expired' };
    return { grant: new SignedUrlGrant(method.toUpperCase(), path, expiresAt) };
  }

  private mac(method: string, path: string, expires: number): string {
    return createHmac('sha256', this.key)
      .update(`${method.toUpperCase()}\n${path}\n${expires}`)
      .digest('base64url');
  }
}

/**
 * URL_SIGNING_SECRET, or a random secret generated on first use and kept in DATA_DIR (mode 600),
 * so every process sharing the directory signs alike and URLs survive restarts.
 */
export async function loadUrlSigningSecret(config: PlatformConfig): Promise<string> {
  if (config.urlSigningSecret) return config.urlSigningSecret;
  const file = join(config.dataDir, SIGNING_SECRET_FILE);
  const existing = await readSecretFile(file);
  if (existing) return existing;
  await mkdir(config.dataDir, { recursive: true, mode: 0o755 });
  // Written aside, then linked into place: link() fails if another process got there first, and
  // nobody ever reads a half-written secret.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(draft, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  try {
    await link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(draft, { force: true });
  }
  const secret = await readSecretFile(file);
  if (!secret) throw new Error(`${file} is empty: delete it to generate a new URL signing secret.`);
  return secret;
}

async function readSecretFile(file: string): Promise<string | null> {
  try {
    return (await readFile(file, 'utf8')).trim() || null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
