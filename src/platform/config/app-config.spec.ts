import { describe, expect, it } from '@jest/globals';
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
      urlSigningSecret: null,
      s3: null,
      files: {
        uploadUrlTtlSeconds: 600,
        createRatePerMinute: 40,
        sweepIntervalSeconds: 60,
        maxBytes: { image: 5 * 1024 * 1024, document: 50 * 1024 * 1024, audio: 100 * 1024 * 1024 },
        parsing: {
          processes: 2,
          heapMb: 512,
          timeoutMs: 60_000,
          docxMaxUnzippedBytes: 8 * 1024 * 1024,
          pdfMaxPages: 2_000,
        },
      },
      rateLimitRequests: 6000,
      rateLimitWindowSeconds: 60,
    });
    expect(config.runs.concurrency).toBe(8);
    expect(config.sse).toMatchObject({
      maxStreamsPerKey: 50,
      maxStreamsPerWorkspace: 1000,
      accessRecheckMs: 30_000,
      v1HistoryMs: 600_000,
    });
  });

  it('reads the document and image limits, and the models that read no images', () => {
    expect(loadAppConfig({}).documents.maxTextBytes).toBe(5_000_000);
    expect(loadAppConfig({}).contentFragmentImageMaxBytes).toBe(10 * 1024 * 1024);
    const config = loadAppConfig({
      DOCUMENT_MAX_TEXT_BYTES: '16777216',
      CONTENT_FRAGMENT_IMAGE_BYTES: '0',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      OPENAI_TEXT_ONLY_MODELS: ' qwen2.5:7b, llama3.1:8b ,',
    });
    expect(config.documents.maxTextBytes).toBe(16_777_216);
    expect(config.contentFragmentImageMaxBytes).toBe(0);
    expect(config.openai?.textOnlyModels).toEqual(['qwen2.5:7b', 'llama3.1:8b']);
    expect(() => loadAppConfig({ DOCUMENT_MAX_TEXT_BYTES: '16777217' })).toThrow(ConfigError);
  });

  it('reads the run budget and the byte limit of MCP answers, which follows the tool output limit', () => {
    expect(loadAppConfig({}).runBudget).toEqual({ maxModelCalls: 64, maxToolCalls: 128 });
    expect(loadAppConfig({}).tools.mcpMessageMaxBytes).toBe(4 * 1024 * 1024);
    expect(loadAppConfig({ TOOL_OUTPUT_MAX_BYTES: '10485760' }).tools.mcpMessageMaxBytes).toBe(20_971_520);
    const config = loadAppConfig({
      RUN_MAX_MODEL_CALLS: '10',
      RUN_MAX_TOOL_CALLS: '20',
      MCP_MESSAGE_MAX_BYTES: '65536',
      TOOL_OUTPUT_MAX_BYTES: '65536',
    });
    expect(config.runBudget).toEqual({ maxModelCalls: 10, maxToolCalls: 20 });
    expect(config.tools.mcpMessageMaxBytes).toBe(65_536);
  });

  it('reads the event stream caps and the access re-check period', () => {
    const config = loadAppConfig({
      SSE_MAX_KEY_STREAMS: '3',
      SSE_MAX_WORKSPACE_STREAMS: '7',
      SSE_ACCESS_RECHECK_MS: '250',
      SSE_V1_HISTORY_MS: '60000',
    });
    expect(config.sse).toMatchObject({
      maxStreamsPerKey: 3,
      maxStreamsPerWorkspace: 7,
      accessRecheckMs: 250,
      v1HistoryMs: 60_000,
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
      RUN_CONCURRENCY: '32',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u:p@db:5432/app',
      dataDir: '/var/lib/app',
      publicBaseUrl: 'https://api.example.com',
      logLevel: 'debug',
      rateLimitRequests: 0,
      rateLimitWindowSeconds: 3600,
      runs: { concurrency: 32 },
    });
  });

  it('reads the file settings and an S3 bucket', () => {
    const config = loadAppConfig({
      URL_SIGNING_SECRET: 'x'.repeat(32),
      FILE_UPLOAD_URL_TTL_SECONDS: '120',
      FILE_CREATE_RATE_PER_MINUTE: '5',
      FILE_SWEEP_INTERVAL_SECONDS: '10',
      FILE_MAX_MB_IMAGE: '1',
      FILE_MAX_MB_DOCUMENT: '2',
      FILE_MAX_MB_AUDIO: '3',
      DOCUMENT_PARSE_PROCESSES: '1',
      DOCUMENT_PARSE_HEAP_MB: '128',
      DOCUMENT_PARSE_TIMEOUT_MS: '5000',
      DOCX_MAX_UNZIPPED_MB: '4',
      PDF_MAX_PAGES: '50',
      S3_BUCKET: 'agent-files',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.urlSigningSecret).toBe('x'.repeat(32));
    expect(config.files).toEqual({
      uploadUrlTtlSeconds: 120,
      createRatePerMinute: 5,
      sweepIntervalSeconds: 10,
      maxBytes: { image: 1024 * 1024, document: 2 * 1024 * 1024, audio: 3 * 1024 * 1024 },
      parsing: {
        processes: 1,
        heapMb: 128,
        timeoutMs: 5_000,
        docxMaxUnzippedBytes: 4 * 1024 * 1024,
        pdfMaxPages: 50,
      },
    });
    expect(config.s3).toEqual({
      bucket: 'agent-files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
  });

  it("uses AWS's endpoint, virtual-hosted buckets and the default credentials when only S3_BUCKET is set", () => {
    expect(loadAppConfig({ S3_BUCKET: 'agent-files', S3_REGION: 'eu-west-3' }).s3).toEqual({
      bucket: 'agent-files',
      endpoint: null,
      region: 'eu-west-3',
      credentials: null,
      forcePathStyle: false,
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
    [{ URL_SIGNING_SECRET: 'short' }, /^URL_SIGNING_SECRET must be at least 32 characters/],
    [{ FILE_UPLOAD_URL_TTL_SECONDS: '5' }, /^FILE_UPLOAD_URL_TTL_SECONDS must be an integer between 30/],
    [{ FILE_CREATE_RATE_PER_MINUTE: '0' }, /^FILE_CREATE_RATE_PER_MINUTE must be an integer/],
    [{ FILE_MAX_MB_IMAGE: '1.5' }, /^FILE_MAX_MB_IMAGE must be an integer/],
    [{ DOCUMENT_PARSE_HEAP_MB: '16' }, /^DOCUMENT_PARSE_HEAP_MB must be an integer between 64/],
    [{ PDF_MAX_PAGES: '0' }, /^PDF_MAX_PAGES must be an integer between 1/],
    [{ DOCUMENT_PARSE_THREADS: '2' }, /^DOCUMENT_PARSE_THREADS is now DOCUMENT_PARSE_PROCESSES/],
    [{ FILE_SWEEP_INTERVAL_SECONDS: 'often' }, /^FILE_SWEEP_INTERVAL_SECONDS must be an integer/],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, /^S3_ENDPOINT is set but S3_BUCKET is not/],
    [{ S3_BUCKET: 'No_Such_Bucket' }, /^S3_BUCKET must be 3 to 63 lower-case/],
    [{ S3_BUCKET: 'files', S3_ENDPOINT: 'ftp://x' }, /^S3_ENDPOINT must use http: or https:/],
    [{ S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'id' }, /^S3_ACCESS_KEY_ID is set without S3_SECRET_ACCESS_KEY/],
    [
      { S3_BUCKET: 'files', S3_SECRET_ACCESS_KEY: 's' },
      /^S3_SECRET_ACCESS_KEY is set without S3_ACCESS_KEY_ID/,
    ],
    [{ S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'maybe' }, /^S3_FORCE_PATH_STYLE must be true or false/],
    [{ S3_BUCKET: 'files', S3_REGION: 'Europe West' }, /^S3_REGION must be a region name/],
    [{ RATE_LIMIT_REQUESTS: '-1' }, /^RATE_LIMIT_REQUESTS must be an integer between 0 and/],
    [{ RATE_LIMIT_REQUESTS: '1.5' }, /^RATE_LIMIT_REQUESTS must be an integer/],
    [{ RATE_LIMIT_WINDOW_SECONDS: '0' }, /^RATE_LIMIT_WINDOW_SECONDS must be an integer between 1 and 86400/],
    [{ RATE_LIMIT_WINDOW_SECONDS: 'minute' }, /^RATE_LIMIT_WINDOW_SECONDS must be an integer/],
    [{ RUN_CONCURRENCY: '0' }, /^RUN_CONCURRENCY must be an integer between 1 and 10000/],
    [{ RUN_MAX_MODEL_CALLS: '0' }, /^RUN_MAX_MODEL_CALLS must be an integer between 1 and 100000/],
    [{ RUN_MAX_TOOL_CALLS: 'many' }, /^RUN_MAX_TOOL_CALLS must be an integer between 1 and 100000/],
    [{ MCP_MESSAGE_MAX_BYTES: '1024' }, /^MCP_MESSAGE_MAX_BYTES must be an integer between 65536 and/],
    [
      { MCP_MESSAGE_MAX_BYTES: '100000', TOOL_OUTPUT_MAX_BYTES: '200000' },
      /^MCP_MESSAGE_MAX_BYTES must be at least TOOL_OUTPUT_MAX_BYTES \(200000\)/,
    ],
    [{ SSE_MAX_KEY_STREAMS: '0' }, /^SSE_MAX_KEY_STREAMS must be an integer between 1 and/],
    [{ SSE_MAX_WORKSPACE_STREAMS: 'lots' }, /^SSE_MAX_WORKSPACE_STREAMS must be an integer/],
    [{ SSE_ACCESS_RECHECK_MS: '5' }, /^SSE_ACCESS_RECHECK_MS must be a number of milliseconds/],
    [{ SSE_V1_HISTORY_MS: 'ten minutes' }, /^SSE_V1_HISTORY_MS must be a number of milliseconds/],
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
