import { describe, expect, it } from '@jest/globals';
import { resolve } from 'node:path';
import { ConfigError } from 'src/platform/config/config-schema';
import { PlatformConfig } from 'src/platform/config/platform.config';

describe('PlatformConfig', () => {
  it('applies defaults when nothing is set', () => {
    expect(PlatformConfig.from({})).toEqual({
      port: 3000,
      databaseUrl: null,
      dataDir: resolve('.data'),
      publicBaseUrl: 'http://localhost:3000',
      logLevel: 'info',
      urlSigningSecret: null,
      rateLimitRequests: 6000,
      rateLimitWindowSeconds: 60,
    });
  });

  it('reads every variable', () => {
    expect(
      PlatformConfig.from({
        PORT: '8080',
        DATABASE_URL: 'postgres://u:p@db:5432/app',
        DATA_DIR: '/var/lib/app',
        PUBLIC_BASE_URL: 'https://api.example.com/',
        LOG_LEVEL: 'DEBUG',
        URL_SIGNING_SECRET: 'x'.repeat(32),
        RATE_LIMIT_REQUESTS: '0',
        RATE_LIMIT_WINDOW_SECONDS: '3600',
      }),
    ).toEqual({
      port: 8080,
      databaseUrl: 'postgres://u:p@db:5432/app',
      dataDir: '/var/lib/app',
      publicBaseUrl: 'https://api.example.com',
      logLevel: 'debug',
      urlSigningSecret: 'x'.repeat(32),
      rateLimitRequests: 0,
      rateLimitWindowSeconds: 3600,
    });
  });

  it('places a relative DATA_DIR under the working directory, and the default address on PORT', () => {
    const config = PlatformConfig.from({ DATA_DIR: 'state', PORT: '4000' });
    expect(config.dataDir).toBe(resolve(process.cwd(), 'state'));
    expect(config.publicBaseUrl).toBe('http://localhost:4000');
  });

  it('takes a blank value as unset', () => {
    expect(PlatformConfig.from({ PORT: '  ', LOG_LEVEL: '', DATABASE_URL: ' ' })).toMatchObject({
      port: 3000,
      logLevel: 'info',
      databaseUrl: null,
    });
  });

  const refused: [Record<string, string>, RegExp][] = [
    [{ PORT: 'abc' }, /^PORT must be an integer between 1 and 65535, got "abc"\.$/],
    [{ PORT: '70000' }, /^PORT must be an integer/],
    [{ DATABASE_URL: 'mysql://x@y/z' }, /^DATABASE_URL must use postgres: or postgresql:, got "mysql:"\.$/],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL must be a URL/],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, /^PUBLIC_BASE_URL must use http: or https:/],
    [
      { LOG_LEVEL: 'loud' },
      /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"\.$/,
    ],
    [{ URL_SIGNING_SECRET: 'short' }, /^URL_SIGNING_SECRET must be at least 32 characters, got 5\.$/],
    [{ RATE_LIMIT_REQUESTS: '-1' }, /^RATE_LIMIT_REQUESTS must be an integer between 0 and/],
    [{ RATE_LIMIT_REQUESTS: '1.5' }, /^RATE_LIMIT_REQUESTS must be an integer/],
    [{ RATE_LIMIT_WINDOW_SECONDS: '0' }, /^RATE_LIMIT_WINDOW_SECONDS must be an integer between 1 and 86400/],
    [{ RATE_LIMIT_WINDOW_SECONDS: 'minute' }, /^RATE_LIMIT_WINDOW_SECONDS must be an integer/],
  ];
  for (const [env, message] of refused) {
    it(`refuses ${JSON.stringify(env)} with a line naming the variable`, () => {
      expect(() => PlatformConfig.from(env)).toThrow(ConfigError);
      expect(() => PlatformConfig.from(env)).toThrow(message);
    });
  }

  it('does not echo a password of a malformed DATABASE_URL', () => {
    expect(() => PlatformConfig.from({ DATABASE_URL: 'postgres://user:secret@' })).toThrow(
      'DATABASE_URL must be a URL (postgres: or postgresql:), got "postgres://user:***@".',
    );
  });
});
