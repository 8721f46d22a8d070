import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { boolean, duration, integer, text, url } from 'src/platform/config/variables';

const MIB = 1024 * 1024;
const mebibytes = (value: number) => value * MIB;

/** S3's bucket naming rules (lower case, digits, dots, hyphens; 3 to 63 characters). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

const filesConfig = ConfigSchema.of({
  uploadUrlTtlSeconds: integer('FILE_UPLOAD_URL_TTL_SECONDS', {
    default: 600,
    min: 30,
    max: 86_400,
    description: "How long a file's upload URL (and its upload window) stays valid.",
  }),
  createRatePerMinute: integer('FILE_CREATE_RATE_PER_MINUTE', {
    default: 40,
    min: 1,
    max: 100_000,
    description: 'File creations allowed per workspace and minute (counted per process).',
  }),
  maxBytes: {
    image: integer('FILE_MAX_MB_IMAGE', {
      default: 5,
      min: 1,
      max: 10_240,
      description: 'Largest image, in MiB.',
    }).map(mebibytes),
    document: integer('FILE_MAX_MB_DOCUMENT', {
      default: 50,
      min: 1,
      max: 10_240,
      description: 'Largest text, data, code, PDF or office file, in MiB.',
    }).map(mebibytes),
    audio: integer('FILE_MAX_MB_AUDIO', {
      default: 100,
      min: 1,
      max: 10_240,
      description: 'Largest audio file, in MiB.',
    }).map(mebibytes),
  },
  sweepIntervalSeconds: integer('FILE_SWEEP_INTERVAL_SECONDS', {
    default: 60,
    min: 1,
    max: 86_400,
    description:
      'How often files no upload can complete (window closed, or the uploading process dead for two intervals) are marked `failed` and cleaned.',
  }),
  s3: {
    bucket: text('S3_BUCKET', {
      refuses: (raw) =>
        BUCKET_NAME.test(raw)
          ? null
          : `must be 3 to 63 lower-case letters, digits, dots or hyphens, got "${raw}".`,
      description: 'Keep file contents in this S3-compatible bucket instead of `DATA_DIR/files`.',
    }),
    endpoint: url('S3_ENDPOINT', {
      protocols: ['http:', 'https:'],
      shownDefault: '_(AWS)_',
      description: 'Endpoint of an S3-compatible server (`http(s)://…`); unset: AWS S3 of `S3_REGION`.',
    }).requires('S3_BUCKET'),
    region: text('S3_REGION', {
      default: 'us-east-1',
      refuses: (raw) =>
        /^[a-z0-9-]{1,64}$/.test(raw) ? null : `must be a region name such as eu-west-1, got "${raw}".`,
      description: 'Region of the bucket.',
    }).requires('S3_BUCKET'),
    accessKeyId: text('S3_ACCESS_KEY_ID', {
      shownDefault: '_(AWS chain)_',
      description:
        "With `S3_SECRET_ACCESS_KEY`: the bucket's credentials. Unset: the AWS SDK's default chain (`AWS_*` variables, instance role…).",
    }).requires('S3_BUCKET'),
    secretAccessKey: text('S3_SECRET_ACCESS_KEY', {
      shownDefault: '_(AWS chain)_',
      description: 'See `S3_ACCESS_KEY_ID`.',
    }).requires('S3_BUCKET'),
    forcePathStyle: boolean('S3_FORCE_PATH_STYLE', {
      default: null,
      shownDefault: '`true` with an endpoint',
      description:
        '`true`: `endpoint/bucket/key` URLs (most self-hosted servers); `false`: `bucket.endpoint/key`.',
    }).requires('S3_BUCKET'),
  },
  documentMaxTextBytes: integer('DOCUMENT_MAX_TEXT_BYTES', {
    default: 5_000_000,
    min: 1_024,
    max: 16_777_216,
    description:
      "UTF-8 bytes of a document's text (at most 16 MiB); the upsert route's body limit is three times this plus 1 MiB.",
  }),
  retiredParseThreads: text('DOCUMENT_PARSE_THREADS', {
    description:
      'Retired when documents moved from worker threads to child processes: set, it stops the start; use `DOCUMENT_PARSE_PROCESSES`.',
  }),
  parsing: {
    processes: integer('DOCUMENT_PARSE_PROCESSES', {
      default: 2,
      min: 1,
      max: 64,
      description:
        'PDF and DOCX files read at once, each in a child process of its own; more wait their turn ([files](decisions/files.md#reading-untrusted-documents)).',
    }),
    heapMb: integer('DOCUMENT_PARSE_HEAP_MB', {
      default: 512,
      min: 64,
      max: 16_384,
      description:
        'Heap of each document-reading process, in MiB; a document that needs more fails with 400 `file_too_large` naming this.',
    }),
    timeoutMs: duration('DOCUMENT_PARSE_TIMEOUT_MS', {
      default: 60_000,
      description:
        'Time one PDF or DOCX may take to read; past it its process is killed and the file fails with 400 `file_too_large`.',
    }),
    docxMaxUnzippedBytes: integer('DOCX_MAX_UNZIPPED_MB', {
      default: 8,
      min: 1,
      max: 1_024,
      description:
        "Uncompressed MiB of a DOCX's XML parts, checked from its zip directory before inflating; more fails the file.",
    }).map(mebibytes),
    pdfMaxPages: integer('PDF_MAX_PAGES', {
      default: 2_000,
      min: 1,
      max: 1_000_000,
      description: 'Pages of a PDF, checked before any page is read; more fails the file.',
    }),
  },
}).then(
  (
    { s3: { bucket, accessKeyId, secretAccessKey, forcePathStyle, ...s3 }, retiredParseThreads, ...files },
    refuse,
  ) => {
    // An old setting must not be ignored quietly.
    if (retiredParseThreads !== null) {
      return refuse(
        'DOCUMENT_PARSE_THREADS is now DOCUMENT_PARSE_PROCESSES (documents are parsed in child processes): rename it.',
      );
    }
    if (accessKeyId !== null && secretAccessKey === null) {
      return refuse(
        'S3_ACCESS_KEY_ID is set without S3_SECRET_ACCESS_KEY: set both, or neither (the default AWS credential chain).',
      );
    }
    if (secretAccessKey !== null && accessKeyId === null) {
      return refuse(
        'S3_SECRET_ACCESS_KEY is set without S3_ACCESS_KEY_ID: set both, or neither (the default AWS credential chain).',
      );
    }
    return {
      ...files,
      // Null: file contents live under DATA_DIR/files.
      s3:
        bucket === null
          ? null
          : {
              bucket,
              ...s3,
              credentials:
                accessKeyId !== null && secretAccessKey !== null ? { accessKeyId, secretAccessKey } : null,
              // Self-hosted S3-compatible servers rarely have a DNS name per bucket.
              forcePathStyle: forcePathStyle ?? s3.endpoint !== null,
            },
    };
  },
);

/**
 * Uploads, their limits, where contents are kept, and how document text is read. The text limit of
 * a document is here, not in data-sources, because files reads it too and data-sources depends on files.
 */
export abstract class FilesConfig extends configToken(filesConfig) {}

export type S3Settings = NonNullable<FilesConfig['s3']>;
export type DocumentParsingSettings = FilesConfig['parsing'];
