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
    });
  });

  it('reads every variable', () => {
    const config = loadAppConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/app',
      DATA_DIR: '/var/lib/app',
      PUBLIC_BASE_URL: 'https://api.example.com/',
      LOG_LEVEL: 'DEBUG',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u:p@db:5432/app',
      dataDir: '/var/lib/app',
      publicBaseUrl: 'https://api.example.com',
      logLevel: 'debug',
    });
  });

  const refused: [Record<string, string>, RegExp][] = [
    [{ PORT: 'abc' }, /^PORT must be an integer/],
    [{ PORT: '70000' }, /^PORT must be an integer/],
    [{ DATABASE_URL: 'mysql://x@y/z' }, /^DATABASE_URL must use postgres: or postgresql:/],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL must be a URL/],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, /^PUBLIC_BASE_URL must use http: or https:/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ SSE_IDLE_TIMEOUT_MS: '3 minutes' }, /^SSE_IDLE_TIMEOUT_MS must be a number of milliseconds/],
    [{ OPENAI_BASE_URL: 'localhost:8080' }, /^OPENAI_BASE_URL must use http: or https:/],
    [{ OPENAI_API_KEY: 'sk-x' }, /^OPENAI_API_KEY is set but OPENAI_BASE_URL is not/],
    [
      { OPENAI_BASE_URL: 'http://llm:8080/v1', OPENAI_MAX_RETRIES: 'many' },
      /^OPENAI_MAX_RETRIES must be an integer/,
    ],
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
