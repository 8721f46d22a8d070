import { describe, it } from 'node:test';
import { expect } from 'expect';
import { ConfigError, loadAppConfig } from 'src/platform/config/app-config';

describe('loadAppConfig', () => {
  it('applies defaults when nothing is set', () => {
    const config = loadAppConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: null,
      dataDir: '/srv/app/.data',
      publicBaseUrl: 'http://localhost:3000',
      logLevel: 'info',
      rateLimitRequests: 6000,
      rateLimitWindowSeconds: 60,
    });
  });

  it('reads every variable', () => {
    const config = loadAppConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/app',
      DATA_DIR: '/var/lib/app',
      PUBLIC_BASE_URL: 'https://api.example.com/',
      LOG_LEVEL: 'DEBUG',
      RATE_LIMIT_REQUESTS: '0',
      RATE_LIMIT_WINDOW_SECONDS: '3600',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u:p@db:5432/app',
      dataDir: '/var/lib/app',
      publicBaseUrl: 'https://api.example.com',
      logLevel: 'debug',
      rateLimitRequests: 0,
      rateLimitWindowSeconds: 3600,
    });
  });

  const refused: [Record<string, string>, RegExp][] = [
    [{ PORT: 'abc' }, /^PORT must be an integer/],
    [{ PORT: '70000' }, /^PORT must be an integer/],
    [{ DATABASE_URL: 'mysql://x@y/z' }, /^DATABASE_URL must use postgres: or postgresql:/],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL must be a URL/],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, /^PUBLIC_BASE_URL must use http: or https:/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ RATE_LIMIT_REQUESTS: '-1' }, /^RATE_LIMIT_REQUESTS must be an integer between 0 and/],
    [{ RATE_LIMIT_REQUESTS: '1.5' }, /^RATE_LIMIT_REQUESTS must be an integer/],
    [{ RATE_LIMIT_WINDOW_SECONDS: '0' }, /^RATE_LIMIT_WINDOW_SECONDS must be an integer between 1 and 86400/],
    [{ RATE_LIMIT_WINDOW_SECONDS: 'minute' }, /^RATE_LIMIT_WINDOW_SECONDS must be an integer/],
  ];
  for (const [env, message] of refused) {
    it(`refuses ${JSON.stringify(env)} with a line naming the variable`, () => {
      expect(() => loadAppConfig(env)).toThrow(ConfigError);
      expect(() => loadAppConfig(env)).toThrow(message);
    });
  }

  it('does not echo a password of a malformed DATABASE_URL', () => {
    expect(() => loadAppConfig({ DATABASE_URL: 'postgres://user:secret@' })).not.toThrow(/secret/);
  });
});
