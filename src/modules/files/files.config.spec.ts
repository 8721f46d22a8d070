import { describe, expect, it } from '@jest/globals';
import { ConfigError } from 'src/platform/config/config-schema';
import { FilesConfig } from 'src/modules/files/files.config';

const MIB = 1024 * 1024;

describe('FilesConfig', () => {
  it('applies defaults when nothing is set: no bucket, contents under DATA_DIR', () => {
    expect(FilesConfig.from({})).toEqual({
      uploadUrlTtlSeconds: 600,
      createRatePerMinute: 40,
      sweepIntervalSeconds: 60,
      maxBytes: { image: 5 * MIB, document: 50 * MIB, audio: 100 * MIB },
      documentMaxTextBytes: 5_000_000,
      parsing: {
        processes: 2,
        heapMb: 512,
        timeoutMs: 60_000,
        docxMaxUnzippedBytes: 8 * MIB,
        pdfMaxPages: 2_000,
      },
      s3: null,
    });
  });

  it('reads the file settings and an S3 bucket', () => {
    const config = FilesConfig.from({
      FILE_UPLOAD_URL_TTL_SECONDS: '120',
      FILE_CREATE_RATE_PER_MINUTE: '5',
      FILE_SWEEP_INTERVAL_SECONDS: '10',
      FILE_MAX_MB_IMAGE: '1',
      FILE_MAX_MB_DOCUMENT: '2',
      FILE_MAX_MB_AUDIO: '3',
      DOCUMENT_MAX_TEXT_BYTES: '16777216',
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
    expect(config).toEqual({
      uploadUrlTtlSeconds: 120,
      createRatePerMinute: 5,
      sweepIntervalSeconds: 10,
      maxBytes: { image: MIB, document: 2 * MIB, audio: 3 * MIB },
      documentMaxTextBytes: 16_777_216,
      parsing: {
        processes: 1,
        heapMb: 128,
        timeoutMs: 5_000,
        docxMaxUnzippedBytes: 4 * MIB,
        pdfMaxPages: 50,
      },
      s3: {
        bucket: 'agent-files',
        endpoint: 'http://127.0.0.1:9000',
        region: 'us-east-1',
        credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
        forcePathStyle: true,
      },
    });
  });

  it("uses AWS's endpoint, virtual-hosted buckets and the default credentials when only S3_BUCKET is set", () => {
    expect(FilesConfig.from({ S3_BUCKET: 'agent-files', S3_REGION: 'eu-west-3' }).s3).toEqual({
      bucket: 'agent-files',
      endpoint: null,
      region: 'eu-west-3',
      credentials: null,
      forcePathStyle: false,
    });
    expect(
      FilesConfig.from({ S3_BUCKET: 'files', S3_ENDPOINT: 'https://s3.local', S3_FORCE_PATH_STYLE: 'false' })
        .s3?.forcePathStyle,
    ).toBe(false);
  });

  const refused: [Record<string, string>, RegExp][] = [
    [{ FILE_UPLOAD_URL_TTL_SECONDS: '5' }, /^FILE_UPLOAD_URL_TTL_SECONDS must be an integer between 30/],
    [{ FILE_CREATE_RATE_PER_MINUTE: '0' }, /^FILE_CREATE_RATE_PER_MINUTE must be an integer/],
    [{ FILE_MAX_MB_IMAGE: '1.5' }, /^FILE_MAX_MB_IMAGE must be an integer between 1 and 10240, got "1.5"\.$/],
    [{ DOCUMENT_PARSE_HEAP_MB: '16' }, /^DOCUMENT_PARSE_HEAP_MB must be an integer between 64/],
    [{ PDF_MAX_PAGES: '0' }, /^PDF_MAX_PAGES must be an integer between 1/],
    [{ DOCUMENT_PARSE_THREADS: '2' }, /^DOCUMENT_PARSE_THREADS is now DOCUMENT_PARSE_PROCESSES/],
    [{ DOCX_MAX_UNZIPPED_MB: '1025' }, /^DOCX_MAX_UNZIPPED_MB must be an integer between 1 and 1024/],
    [{ FILE_SWEEP_INTERVAL_SECONDS: 'often' }, /^FILE_SWEEP_INTERVAL_SECONDS must be an integer/],
    [
      { DOCUMENT_MAX_TEXT_BYTES: '16777217' },
      /^DOCUMENT_MAX_TEXT_BYTES must be an integer between 1024 and 16777216/,
    ],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, /^S3_ENDPOINT is set but S3_BUCKET is not/],
    [{ S3_REGION: 'Europe West' }, /^S3_REGION is set but S3_BUCKET is not/],
    [{ S3_FORCE_PATH_STYLE: 'maybe' }, /^S3_FORCE_PATH_STYLE is set but S3_BUCKET is not/],
    [
      { S3_BUCKET: 'No_Such_Bucket' },
      /^S3_BUCKET must be 3 to 63 lower-case letters, digits, dots or hyphens, got "No_Such_Bucket"\.$/,
    ],
    [{ S3_BUCKET: 'files', S3_ENDPOINT: 'ftp://x' }, /^S3_ENDPOINT must use http: or https:/],
    [{ S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'id' }, /^S3_ACCESS_KEY_ID is set without S3_SECRET_ACCESS_KEY/],
    [
      { S3_BUCKET: 'files', S3_SECRET_ACCESS_KEY: 's' },
      /^S3_SECRET_ACCESS_KEY is set without S3_ACCESS_KEY_ID/,
    ],
    [{ S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'maybe' }, /^S3_FORCE_PATH_STYLE must be true or false/],
    [{ S3_BUCKET: 'files', S3_REGION: 'Europe West' }, /^S3_REGION must be a region name/],
  ];
  for (const [env, message] of refused) {
    it(`refuses ${JSON.stringify(env)} with a line naming the variable`, () => {
      expect(() => FilesConfig.from(env)).toThrow(ConfigError);
      expect(() => FilesConfig.from(env)).toThrow(message);
    });
  }
});
