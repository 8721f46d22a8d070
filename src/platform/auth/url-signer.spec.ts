import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  SIGNING_SECRET_FILE,
  SignedUrlGrant,
  UrlSigner,
  loadUrlSigningSecret,
} from 'src/platform/auth/url-signer';
import { PlatformConfig } from 'src/platform/config/platform.config';

const PATH = '/api/w/ws12345678/files/fil_0123456789';

function query(signed: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(signed));
}

describe('UrlSigner', () => {
  const signer = new UrlSigner('s'.repeat(48));
  const now = new Date('2030-01-01T00:00:00Z');
  const expiresAt = new Date('2030-01-01T00:10:00Z');

  it('lets the signed method and path through until the expiry', () => {
    const signed = query(signer.signQuery('POST', PATH, expiresAt));
    expect(signed.expires).toBe(String(expiresAt.getTime() / 1000));
    const check = signer.verify('POST', PATH, signed, now);
    expect(check).toEqual({ grant: new SignedUrlGrant('POST', PATH, expiresAt) });
  });

  it('refuses another path, method, expiry or secret, and a missing part', () => {
    const signed = query(signer.signQuery('POST', PATH, expiresAt));
    const refusals = [
      signer.verify('POST', `${PATH}x`, signed, now),
      signer.verify('GET', PATH, signed, now),
      signer.verify('POST', PATH, { ...signed, expires: String(Number(signed.expires) + 1) }, now),
      signer.verify('POST', PATH, { ...signed, signature: signed.signature.replace(/^./, 'A') }, now),
      signer.verify('POST', PATH, { signature: signed.signature }, now),
      signer.verify('POST', PATH, { expires: signed.expires }, now),
      signer.verify('POST', PATH, { ...signed, signature: [signed.signature] }, now),
      new UrlSigner('t'.repeat(48)).verify('POST', PATH, signed, now),
    ];
    for (const check of refusals) expect(check).toEqual({ failure: 'invalid' });
  });

  it('refuses a genuine signature once expired', () => {
    const signed = query(signer.signQuery('POST', PATH, expiresAt));
    expect(signer.verify('POST', PATH, signed, expiresAt)).toEqual({ failure: 'expired' });
  });
});

describe('loadUrlSigningSecret', () => {
  const configIn = (dataDir: string, secret?: string) =>
    PlatformConfig.from({ DATA_DIR: dataDir, URL_SIGNING_SECRET: secret });

  it('prefers URL_SIGNING_SECRET', async () => {
    expect(await loadUrlSigningSecret(configIn('/nonexistent', 'e'.repeat(40)))).toBe('e'.repeat(40));
  });

  it('generates one secret in DATA_DIR, readable by its owner only, shared by every loader', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wa-secret-'));
    try {
      const secrets = await Promise.all([1, 2, 3, 4].map(() => loadUrlSigningSecret(configIn(dataDir))));
      expect(new Set(secrets).size).toBe(1);
      expect(secrets[0]).toMatch(/^[A-Za-z0-9_-]{64}$/);
      const file = join(dataDir, SIGNING_SECRET_FILE);
      expect(await readFile(file, 'utf8')).toBe(secrets[0]);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await loadUrlSigningSecret(configIn(dataDir))).toBe(secrets[0]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
