import { isAbsolute, resolve } from 'node:path';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The S3-compatible bucket that holds file contents instead of `DATA_DIR/files`. */
export interface S3Settings {
  bucket: string;
  /** Null: AWS's own endpoint for the region. */
  endpoint: string | null;
  region: string;
  /** Null: the SDK's default credential chain (AWS_* variables, instance role…). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
}

export interface FilesSettings {
  /** How long an upload URL (and the file's upload window) stays valid. */
  uploadUrlTtlSeconds: number;
  /** File creations per workspace and minute. */
  createRatePerMinute: number;
  /** Period of the sweep that fails files never uploaded in time. */
  sweepIntervalSeconds: number;
  /** Largest file per type family, in bytes. */
  maxBytes: { image: number; document: number; audio: number };
  parsing: DocumentParsingSettings;
}

/** Limits of reading the text of PDF and DOCX files (in child processes); over one, the file fails naming it. */
export interface DocumentParsingSettings {
  /** Documents read at once, each in a parser process of its own; more wait their turn. */
  processes: number;
  /** Heap of each parser process, in MiB. */
  heapMb: number;
  /** Wall-clock limit of reading one document. */
  timeoutMs: number;
  /** Uncompressed bytes of the XML parts of a DOCX (its text, styles, numbering…). */
  docxMaxUnzippedBytes: number;
  pdfMaxPages: number;
}

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
  sse: SseSettings;
  runs: RunSettings;
  runBudget: RunBudgetSettings;
  /** Text of a conversation's content fragments a run gives the model; the rest is cut, saying so. */
  contentFragmentBudgetBytes: number;
  /** Bytes of the images of content fragments one model request may show (newest first); 0: none. */
  contentFragmentImageMaxBytes: number;
  openai: OpenAiSettings | null;
  tools: ToolSettings;
  /** Null means: a random secret generated once and kept in `dataDir`. */
  urlSigningSecret: string | null;
  files: FilesSettings;
  /** Null means: file contents live under `dataDir/files`. */
  s3: S3Settings | null;
  documents: DocumentsSettings;
}

/** Limits of the documents of data sources; over one, an upsert is refused with 400 naming it. */
export interface DocumentsSettings {
  /** UTF-8 bytes of a document's text; the upsert route's body limit follows from it. */
  maxTextBytes: number;
  maxPerDataSource: number;
  maxTags: number;
  maxParents: number;
}

export interface RunSettings {
  /** How often a process marks its running agent messages alive. */
  heartbeatMs: number;
  /** A running message without a heartbeat for this long belongs to a dead process: it is failed. */
  staleAfterMs: number;
  /** Pause between the chunks of the built-in local model, so its answers stream like a real model's. */
  localModelChunkDelayMs: number;
  /**
   * Posted messages a process answers at once; later ones wait their turn, so a burst of mentions
   * (a thousand wake-ups due together) cannot take every database connection.
   */
  concurrency: number;
}

/**
 * What the whole tree of runs answering one user message may spend (each agent it mentions, and
 * every agent those ask through `run_agent`); past either, the runs end with `run_budget_exceeded`.
 */
export interface RunBudgetSettings {
  maxModelCalls: number;
  maxToolCalls: number;
}

export interface ToolSettings {
  /** A tool call that has not answered after this long fails (its error goes to the model). */
  callTimeoutMs: number;
  /** Text a tool call may hand back to the model; longer output is cut, with a note saying so. */
  outputMaxBytes: number;
  /**
   * Bytes of one answer of a remote tool server (one JSON-RPC message) read at most: past them the
   * read stops, and the call, listing or connection fails saying so.
   */
  mcpMessageMaxBytes: number;
  /** Tool calls one model step may make; calls beyond are failed without running. */
  maxCallsPerStep: number;
  /** A call waiting for approval longer than this is declined, and the run goes on. */
  approvalTimeoutMs: number;
  /** How often a run waiting for approval looks for the answer given on another process. */
  approvalPollMs: number;
  /** Remote tool servers may live on loopback, private or link-local addresses (self-hosted set-ups, tests). */
  allowPrivateNetworks: boolean;
  /** How deep `run_agent` may nest (an agent asking an agent asking an agent…). */
  runAgentMaxDepth: number;
  /** The model the internal `reasoning` server delegates to, on the openai provider; null: not offered. */
  reasoningModelId: string | null;
}

export interface OpenAiSettings {
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
  maxRetries: number;
  /** Models of that endpoint that read no images: they get an image's title and type instead. */
  textOnlyModels?: string[];
}

export interface SseSettings {
  /** A stream with no event for this long is closed (the client resumes with its last id). */
  idleTimeoutMs: number;
  heartbeatMs: number;
  /** Slow poll of the log, in case a doorbell notification was lost. */
  pollMs: number;
  /** A client that does not read for this long is disconnected instead of buffering for it. */
  slowClientTimeoutMs: number;
  /** Open streams one API key may hold on a process; more are refused with 429. */
  maxStreamsPerKey: number;
  /** Open streams one workspace may hold on a process; more are refused with 429. */
  maxStreamsPerWorkspace: number;
  /** Every open stream's access is re-checked this often (revocations are heard at once). */
  accessRecheckMs: number;
  /** A public-family conversation stream opened without a cursor starts with the events of this last span. */
  v1HistoryMs: number;
}

/** Far above what a browser-heavy team opens (a tab holds one stream per open conversation). */
export const DEFAULT_SSE_MAX_KEY_STREAMS = 50;
export const DEFAULT_SSE_MAX_WORKSPACE_STREAMS = 1_000;

/** Validated configuration; also the injection token for it. */
export class AppConfig implements AppConfigValues {
  readonly port!: number;
  readonly databaseUrl!: string | null;
  readonly dataDir!: string;
  readonly publicBaseUrl!: string;
  readonly logLevel!: LogLevel;
  readonly sse!: SseSettings;
  readonly runs!: RunSettings;
  readonly runBudget!: RunBudgetSettings;
  readonly contentFragmentBudgetBytes!: number;
  readonly contentFragmentImageMaxBytes!: number;
  readonly openai!: OpenAiSettings | null;
  readonly tools!: ToolSettings;
  readonly urlSigningSecret!: string | null;
  readonly files!: FilesSettings;
  readonly s3!: S3Settings | null;
  readonly documents!: DocumentsSettings;
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

function readDuration(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 10 || value > 86_400_000) {
    throw new ConfigError(`${name} must be a number of milliseconds between 10 and 86400000, got "${raw}".`);
  }
  return value;
}

function readCount(env: Env, name: string, fallback: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > max) {
    throw new ConfigError(`${name} must be an integer between 0 and ${max}, got "${raw}".`);
  }
  return value;
}

function readOpenAi(env: Env): OpenAiSettings | null {
  const baseUrl = readUrl(env, 'OPENAI_BASE_URL', ['http:', 'https:']);
  const apiKey = env.OPENAI_API_KEY?.trim() || null;
  if (!baseUrl) {
    if (apiKey)
      throw new ConfigError('OPENAI_API_KEY is set but OPENAI_BASE_URL is not: set both or neither.');
    return null;
  }
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey,
    timeoutMs: readDuration(env, 'OPENAI_TIMEOUT_MS', 60_000),
    maxRetries: readCount(env, 'OPENAI_MAX_RETRIES', 2, 10),
    textOnlyModels: (env.OPENAI_TEXT_ONLY_MODELS ?? '')
      .split(',')
      .map((model) => model.trim())
      .filter((model) => model !== ''),
  };
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

/** Answers a process generates at once by default; see `RunSettings.concurrency`. */
export const DEFAULT_RUN_CONCURRENCY = 8;

function readInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}".`);
  }
  return value;
}

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}".`);
}

/** Short secrets can be guessed offline from one signed URL. */
const MIN_SIGNING_SECRET_LENGTH = 32;

function readSigningSecret(env: Env): string | null {
  const raw = env.URL_SIGNING_SECRET?.trim();
  if (raw === undefined || raw === '') return null;
  if (raw.length < MIN_SIGNING_SECRET_LENGTH) {
    throw new ConfigError(
      `URL_SIGNING_SECRET must be at least ${MIN_SIGNING_SECRET_LENGTH} characters, got ${raw.length}.`,
    );
  }
  return raw;
}

const MIB = 1024 * 1024;

function readToolOutputLimits(env: Env): Pick<ToolSettings, 'outputMaxBytes' | 'mcpMessageMaxBytes'> {
  const outputMaxBytes = readInteger(env, 'TOOL_OUTPUT_MAX_BYTES', 65_536, 1_024, 10_485_760);
  const mcpMessageMaxBytes = readInteger(
    env,
    'MCP_MESSAGE_MAX_BYTES',
    Math.max(4 * MIB, 2 * outputMaxBytes),
    65_536,
    256 * MIB,
  );
  if (mcpMessageMaxBytes < outputMaxBytes) {
    throw new ConfigError(
      `MCP_MESSAGE_MAX_BYTES must be at least TOOL_OUTPUT_MAX_BYTES (${outputMaxBytes}), got "${mcpMessageMaxBytes}".`,
    );
  }
  return { outputMaxBytes, mcpMessageMaxBytes };
}

function readFilesSettings(env: Env): FilesSettings {
  const maxMiB = (name: string, fallback: number) => readInteger(env, name, fallback, 1, 10_240) * MIB;
  return {
    uploadUrlTtlSeconds: readInteger(env, 'FILE_UPLOAD_URL_TTL_SECONDS', 600, 30, 86_400),
    createRatePerMinute: readInteger(env, 'FILE_CREATE_RATE_PER_MINUTE', 40, 1, 100_000),
    sweepIntervalSeconds: readInteger(env, 'FILE_SWEEP_INTERVAL_SECONDS', 60, 1, 86_400),
    maxBytes: {
      image: maxMiB('FILE_MAX_MB_IMAGE', 5),
      document: maxMiB('FILE_MAX_MB_DOCUMENT', 50),
      audio: maxMiB('FILE_MAX_MB_AUDIO', 100),
    },
    parsing: {
      processes: readParseProcesses(env),
      heapMb: readInteger(env, 'DOCUMENT_PARSE_HEAP_MB', 512, 64, 16_384),
      timeoutMs: readDuration(env, 'DOCUMENT_PARSE_TIMEOUT_MS', 60_000),
      docxMaxUnzippedBytes: readInteger(env, 'DOCX_MAX_UNZIPPED_MB', 8, 1, 1_024) * MIB,
      pdfMaxPages: readInteger(env, 'PDF_MAX_PAGES', 2_000, 1, 1_000_000),
    },
  };
}

function readParseProcesses(env: Env): number {
  // Renamed when parsing moved from threads to processes: an old setting must not be ignored quietly.
  if (env.DOCUMENT_PARSE_THREADS !== undefined) {
    throw new ConfigError(
      'DOCUMENT_PARSE_THREADS is now DOCUMENT_PARSE_PROCESSES (documents are parsed in child processes): rename it.',
    );
  }
  return readInteger(env, 'DOCUMENT_PARSE_PROCESSES', 2, 1, 64);
}

/** S3's bucket naming rules (lower case, digits, dots, hyphens; 3 to 63 characters). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const S3_VARIABLES = [
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
];

function readS3Settings(env: Env): S3Settings | null {
  const bucket = env.S3_BUCKET?.trim();
  if (bucket === undefined || bucket === '') {
    const orphan = S3_VARIABLES.find((name) => env[name]?.trim());
    if (orphan) throw new ConfigError(`${orphan} is set but S3_BUCKET is not: set both, or neither.`);
    return null;
  }
  if (!BUCKET_NAME.test(bucket)) {
    throw new ConfigError(
      `S3_BUCKET must be 3 to 63 lower-case letters, digits, dots or hyphens, got "${bucket}".`,
    );
  }
  const endpoint = readUrl(env, 'S3_ENDPOINT', ['http:', 'https:']);
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() ?? '';
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() ?? '';
  for (const [given, missing] of [
    ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
    ['S3_SECRET_ACCESS_KEY', 'S3_ACCESS_KEY_ID'],
  ]) {
    if (env[given]?.trim() && !env[missing]?.trim()) {
      throw new ConfigError(
        `${given} is set without ${missing}: set both, or neither (the default AWS credential chain).`,
      );
    }
  }
  const region = env.S3_REGION?.trim() || 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/.test(region)) {
    throw new ConfigError(`S3_REGION must be a region name such as eu-west-1, got "${region}".`);
  }
  return {
    bucket,
    endpoint,
    region,
    credentials: accessKeyId === '' ? null : { accessKeyId, secretAccessKey },
    // Self-hosted S3-compatible servers rarely have a DNS name per bucket.
    forcePathStyle: readBoolean(env, 'S3_FORCE_PATH_STYLE', endpoint !== null),
  };
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
    sse: {
      idleTimeoutMs: readDuration(env, 'SSE_IDLE_TIMEOUT_MS', 180_000),
      heartbeatMs: readDuration(env, 'SSE_HEARTBEAT_MS', 15_000),
      pollMs: readDuration(env, 'SSE_POLL_MS', 5_000),
      slowClientTimeoutMs: readDuration(env, 'SSE_SLOW_CLIENT_TIMEOUT_MS', 30_000),
      maxStreamsPerKey: readInteger(env, 'SSE_MAX_KEY_STREAMS', DEFAULT_SSE_MAX_KEY_STREAMS, 1, 1_000_000),
      maxStreamsPerWorkspace: readInteger(
        env,
        'SSE_MAX_WORKSPACE_STREAMS',
        DEFAULT_SSE_MAX_WORKSPACE_STREAMS,
        1,
        1_000_000,
      ),
      accessRecheckMs: readDuration(env, 'SSE_ACCESS_RECHECK_MS', 30_000),
      v1HistoryMs: readDuration(env, 'SSE_V1_HISTORY_MS', 600_000),
    },
    runs: {
      heartbeatMs: readDuration(env, 'RUN_HEARTBEAT_MS', 5_000),
      staleAfterMs: readDuration(env, 'RUN_STALE_AFTER_MS', 30_000),
      localModelChunkDelayMs: readCount(env, 'LOCAL_MODEL_CHUNK_DELAY_MS', 25, 10_000),
      concurrency: readInteger(env, 'RUN_CONCURRENCY', DEFAULT_RUN_CONCURRENCY, 1, 10_000),
    },
    runBudget: {
      maxModelCalls: readInteger(env, 'RUN_MAX_MODEL_CALLS', 64, 1, 100_000),
      maxToolCalls: readInteger(env, 'RUN_MAX_TOOL_CALLS', 128, 1, 100_000),
    },
    contentFragmentBudgetBytes: readInteger(env, 'CONTENT_FRAGMENT_BUDGET_BYTES', 262_144, 1_024, 16_777_216),
    contentFragmentImageMaxBytes: readInteger(env, 'CONTENT_FRAGMENT_IMAGE_BYTES', 10_485_760, 0, 67_108_864),
    openai: readOpenAi(env),
    tools: {
      callTimeoutMs: readDuration(env, 'TOOL_CALL_TIMEOUT_MS', 60_000),
      ...readToolOutputLimits(env),
      maxCallsPerStep: readInteger(env, 'TOOL_MAX_CALLS_PER_STEP', 8, 1, 64),
      approvalTimeoutMs: readDuration(env, 'TOOL_APPROVAL_TIMEOUT_MS', 600_000),
      approvalPollMs: readDuration(env, 'TOOL_APPROVAL_POLL_MS', 1_000),
      allowPrivateNetworks: readBoolean(env, 'MCP_ALLOW_PRIVATE_NETWORKS', false),
      runAgentMaxDepth: readInteger(env, 'RUN_AGENT_MAX_DEPTH', 2, 1, 5),
      reasoningModelId: env.REASONING_MODEL_ID?.trim() || null,
    },
    urlSigningSecret: readSigningSecret(env),
    files: readFilesSettings(env),
    s3: readS3Settings(env),
    documents: {
      maxTextBytes: readInteger(env, 'DOCUMENT_MAX_TEXT_BYTES', 5_000_000, 1_024, 16_777_216),
      maxPerDataSource: readInteger(env, 'DOCUMENTS_PER_DATA_SOURCE_MAX', 100_000, 1, 100_000_000),
      maxTags: readInteger(env, 'DOCUMENT_MAX_TAGS', 64, 0, 1_000),
      maxParents: readInteger(env, 'DOCUMENT_MAX_PARENTS', 64, 0, 1_000),
    },
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
