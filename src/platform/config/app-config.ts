import { isAbsolute, resolve } from 'node:path';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface AppConfigValues {
  port: number;
  /** Null means: start or attach to the embedded PostgreSQL under `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  publicBaseUrl: string;
  logLevel: LogLevel;
  /** Requests each API key may make per window, across all processes; 0 turns limiting off. */
  rateLimitRequests: number;
  rateLimitWindowSeconds: number;
}

/** Validated configuration; also the injection token for it. */
export class AppConfig implements AppConfigValues {
  readonly port!: number;
  readonly databaseUrl!: string | null;
  readonly dataDir!: string;
  readonly publicBaseUrl!: string;
  readonly logLevel!: LogLevel;
  readonly rateLimitRequests!: number;
  readonly rateLimitWindowSeconds!: number;

  constructor(values: AppConfigValues) {
    Object.assign(this, values);
    Object.freeze(this);
  }
}

/** A configuration value the process cannot start with; the message is one line naming the variable. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function readPort(env: Env): number {
  const raw = env.PORT?.trim();
  if (raw === undefined || raw === '') return 3000;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
    throw new ConfigError(`PORT must be an integer between 1 and 65535, got "${raw}".`);
  }
  return port;
}

function readUrl(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(' or ')}), got "${redact(raw)}".`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${url.protocol}".`);
  }
  return raw;
}

/** Never echo a password from a connection string into logs. */
function redact(raw: string): string {
  return raw.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

function readLogLevel(env: Env): LogLevel {
  const raw = env.LOG_LEVEL?.trim().toLowerCase();
  if (raw === undefined || raw === '') return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}".`);
  }
  return raw as LogLevel;
}

/**
 * Defaults: 6,000 requests per key per minute (100 a second on average) leave room for bursts of
 * hundreds of concurrent requests from one key, as scripts and the test suite send.
 */
export const DEFAULT_RATE_LIMIT_REQUESTS = 6000;
export const DEFAULT_RATE_LIMIT_WINDOW_SECONDS = 60;

function readInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}".`);
  }
  return value;
}

export function loadAppConfig(env: Env, cwd = process.cwd()): AppConfig {
  const port = readPort(env);
  const databaseUrl = readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const rawDataDir = env.DATA_DIR?.trim() || '.data';
  const dataDir = isAbsolute(rawDataDir) ? rawDataDir : resolve(cwd, rawDataDir);
  const publicBaseUrl = (
    readUrl(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`
  ).replace(/\/+$/, '');
  return new AppConfig({
    port,
    databaseUrl,
    dataDir,
    publicBaseUrl,
    logLevel: readLogLevel(env),
    rateLimitRequests: readInteger(env, 'RATE_LIMIT_REQUESTS', DEFAULT_RATE_LIMIT_REQUESTS, 0, 1_000_000_000),
    rateLimitWindowSeconds: readInteger(
      env,
      'RATE_LIMIT_WINDOW_SECONDS',
      DEFAULT_RATE_LIMIT_WINDOW_SECONDS,
      1,
      86_400,
    ),
  });
}

/** Reads the configuration, or stops the process with one line naming the faulty variable. */
export function loadAppConfigOrExit(env: Env = process.env): AppConfig {
  try {
    return loadAppConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(1);
  }
}
