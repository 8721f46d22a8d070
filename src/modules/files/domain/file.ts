export const FILE_STATUSES = ['created', 'ready', 'failed'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

export const FILE_USE_CASES = [
  'conversation',
  'avatar',
  'tool_output',
  'upsert_document',
  'upsert_table',
  'folders_document',
] as const;
export type FileUseCase = (typeof FILE_USE_CASES)[number];

export interface FileUseCaseMetadata {
  /** The conversation the file is attached to (`conversation` files). */
  conversationId?: string;
  /** The space the file belongs to (`folders_document` files); only its members may see the file. */
  spaceId?: string;
}

/**
 * A file: `created` with its declared size and an upload window, then `ready` once its content is
 * stored (with its real size), or `failed` when the upload was refused or never came.
 */
export interface FileRecord {
  id: number;
  sId: string;
  workspaceId: number;
  /** sId of the member who created the file. */
  ownerSId: string;
  contentType: string;
  fileName: string;
  fileSize: number;
  status: FileStatus;
  useCase: FileUseCase;
  useCaseMetadata: FileUseCaseMetadata;
  /** UTF-8 bytes of the text extracted when the upload completed; null when none was (images, audio). */
  textBytes: number | null;
  /** Counts the record's changes. */
  version: number;
  /** End of the upload window, and of the signed upload URL. */
  expiresAt: Date;
  createdAt: Date;
}

/** Where the content lives in blob storage: derived, so it never needs storing. */
export function blobKey(file: Pick<FileRecord, 'workspaceId' | 'sId'>): string {
  return `${file.workspaceId}/${file.sId}`;
}
