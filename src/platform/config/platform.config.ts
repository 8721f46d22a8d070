import { isAbsolute, resolve } from 'node:path';
import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { integer, oneOf, text, url } from 'src/platform/config/variables';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Short secrets can be guessed offline from one signed URL. */
const MIN_SIGNING_SECRET_LENGTH = 32;

const platformConfig = ConfigSchema.of({
  port: integer('PORT', {
    default: 3000,
    min: 1,
    max: 65_535,
    description: 'HTTP port, on every interface.',
  }),
  databaseUrl: url('DATABASE_URL', {
    protocols: ['postgres:', 'postgresql:'],
    description:
      '`postgres://…` of the database to use. Unset: start (or attach to) the embedded PostgreSQL under `DATA_DIR/postgres`.',
  }),
  dataDir: text('DATA_DIR', {
    default: '.data',
    shownDefault: '`./.data`',
    description:
      'Where the embedded PostgreSQL and its generated credentials live, and file contents (`files/`) unless `S3_BUCKET` is set.',
  }),
  publicBaseUrl: url('PUBLIC_BASE_URL', {
    protocols: ['http:', 'https:'],
    shownDefault: '`http://localhost:$PORT`',
    description:
      "The service's public address, used in absolute URLs it returns (upload URLs, a conversation's `url`).",
  }),
  logLevel: oneOf('LOG_LEVEL', LOG_LEVELS, {
    default: 'info',
    description:
      '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`. Logs are JSON lines with the request id (`X-Request-Id`).',
  }),
  urlSigningSecret: text('URL_SIGNING_SECRET', {
    shownDefault: '_(generated)_',
    refuses: (raw) =>
      raw.length < MIN_SIGNING_SECRET_LENGTH
        ? `must be at least ${MIN_SIGNING_SECRET_LENGTH} characters, got ${raw.length}.`
        : null,
    description:
      'Secret of the signed upload URLs, at least 32 characters. Unset: a random one generated once in `DATA_DIR/url-signing-secret` (mode 600). Set it when processes do not share `DATA_DIR`.',
  }),
  // 6,000 a minute (100 a second on average) leave room for the bursts of hundreds of concurrent
  // requests that scripts and the test suite send from one key.
  rateLimitRequests: integer('RATE_LIMIT_REQUESTS', {
    default: 6000,
    min: 0,
    max: 1_000_000_000,
    description:
      'Requests each API key may make per window, summed over every process; `0` turns limiting off.',
  }),
  rateLimitWindowSeconds: integer('RATE_LIMIT_WINDOW_SECONDS', {
    default: 60,
    min: 1,
    max: 86_400,
    description: 'Length of the fixed windows (aligned on the epoch) the limit applies to: 1 to 86400.',
  }),
}).then((values) => ({
  ...values,
  dataDir: isAbsolute(values.dataDir) ? values.dataDir : resolve(values.dataDir),
  publicBaseUrl: (values.publicBaseUrl ?? `http://localhost:${values.port}`).replace(/\/+$/, ''),
}));

/** What every process needs whatever it serves: its port, database, data directory, address, logs, limits. */
export abstract class PlatformConfig extends configToken(platformConfig) {}
