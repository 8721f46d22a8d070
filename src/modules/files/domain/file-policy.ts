import type { FileUseCase } from 'src/modules/files/domain/file';
import { FileIsEmpty, FileTooLarge, FileTypeNotSupported } from 'src/modules/files/domain/files.errors';

export type FileFamily =
  'image' | 'text' | 'table' | 'data' | 'code' | 'pdf' | 'office_document' | 'spreadsheet' | 'audio';

/** The families whose largest size is configured (images, audio, and every other document). */
export interface FileSizeLimits {
  image: number;
  document: number;
  audio: number;
}

const CONTENT_TYPES = new Map<string, FileFamily>(
  Object.entries({
    'image/png': 'image',
    'image/jpeg': 'image',
    'image/gif': 'image',
    'image/webp': 'image',
    'text/plain': 'text',
    'text/markdown': 'text',
    'text/html': 'text',
    'text/csv': 'table',
    'text/tab-separated-values': 'table',
    'application/json': 'data',
    'text/javascript': 'code',
    'application/javascript': 'code',
    'application/typescript': 'code',
    'text/x-python': 'code',
    'text/x-java': 'code',
    'text/x-c': 'code',
    'text/x-c++': 'code',
    'text/x-go': 'code',
    'text/x-rust': 'code',
    'text/x-ruby': 'code',
    'text/x-sh': 'code',
    'application/x-sh': 'code',
    'text/css': 'code',
    'text/xml': 'code',
    'application/xml': 'code',
    'text/yaml': 'code',
    'application/x-yaml': 'code',
    'application/sql': 'code',
    'application/pdf': 'pdf',
    'application/msword': 'office_document',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'office_document',
    'application/vnd.ms-powerpoint': 'office_document',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'office_document',
    'application/vnd.ms-excel': 'spreadsheet',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'spreadsheet',
    'audio/mpeg': 'audio',
    'audio/mp4': 'audio',
    'audio/x-m4a': 'audio',
    'audio/wav': 'audio',
    'audio/x-wav': 'audio',
    'audio/webm': 'audio',
    'audio/ogg': 'audio',
  } satisfies Record<string, FileFamily>),
);

const DOCUMENTS: readonly FileFamily[] = [
  'text',
  'table',
  'data',
  'code',
  'pdf',
  'office_document',
  'spreadsheet',
];

/** Which families each use case accepts. */
const USE_CASE_FAMILIES: Record<FileUseCase, readonly FileFamily[]> = {
  conversation: [...DOCUMENTS, 'image', 'audio'],
  avatar: ['image'],
  tool_output: ['text', 'table', 'data', 'code', 'pdf', 'image'],
  upsert_document: DOCUMENTS,
  upsert_table: ['table', 'spreadsheet'],
  folders_document: DOCUMENTS,
};

export const SUPPORTED_CONTENT_TYPES: readonly string[] = [...CONTENT_TYPES.keys()];

/** The media type alone, lower case: `Text/Plain; charset=utf-8` is `text/plain`. */
export function normaliseContentType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

function sizeLimit(family: FileFamily, limits: FileSizeLimits): number {
  if (family === 'image') return limits.image;
  if (family === 'audio') return limits.audio;
  return limits.document;
}

function describeBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return mib >= 1 ? `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MB` : `${bytes} bytes`;
}

/**
 * Checks a new file against the policy: its content type must be known and accepted for the
 * use case, and its declared size within its family's limit. Returns the normalised content type.
 */
export function checkNewFile(
  input: { contentType: string; fileSize: number; useCase: FileUseCase },
  limits: FileSizeLimits,
): string {
  const contentType = normaliseContentType(input.contentType);
  const family = CONTENT_TYPES.get(contentType);
  if (!family) {
    throw new FileTypeNotSupported(`Content type "${contentType}" is not supported.`);
  }
  const accepted = USE_CASE_FAMILIES[input.useCase];
  if (!accepted.includes(family)) {
    throw new FileTypeNotSupported(
      `Content type "${contentType}" is not accepted for ${input.useCase} files (accepted: ${accepted
        .map((f) => f.replace('_', ' '))
        .join(', ')}).`,
    );
  }
  if (input.fileSize === 0) throw new FileIsEmpty('fileSize is 0: an empty file cannot be uploaded.');
  const max = sizeLimit(family, limits);
  if (input.fileSize > max) {
    throw new FileTooLarge(
      `A ${family.replace('_', ' ')} file may have at most ${describeBytes(max)}; fileSize is ${input.fileSize} bytes.`,
    );
  }
  return contentType;
}
