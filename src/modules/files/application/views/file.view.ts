import type { FileRecord, FileStatus, FileUseCase } from 'src/modules/files/domain/file';

export class FileUseCaseMetadataView {
  /** The conversation of a `conversation` file. */
  conversationId?: string;
  /** The space of a `folders_document` file. */
  spaceId?: string;
}

/** A file record; its URLs appear as its status allows them. */
export class FileView {
  /** @example fil_3fZ0aBcDeF */
  sId!: string;
  /**
   * Same as sId.
   * @example fil_3fZ0aBcDeF
   */
  id!: string;
  /** @example text/plain */
  contentType!: string;
  /** @example notes.txt */
  fileName!: string;
  /** Bytes: as declared until ready, then as stored. */
  fileSize!: number;
  status!: FileStatus;
  useCase!: FileUseCase;
  /**
   * While created: the pre-signed upload URL (POST multipart/form-data, one part `file`), valid
   * without an API key until the upload window closes.
   */
  uploadUrl?: string;
  /** Counts the changes of the record. */
  version!: number;
  /** Once ready: where the content is downloaded (with a key). */
  downloadUrl?: string;
  /** Ready avatars: where anyone reads the image, without a key. */
  publicUrl?: string;
  /**
   * The file's API path.
   * @example /api/w/3fZ0aBcDeF/files/fil_3fZ0aBcDeF
   */
  path!: string;
  useCaseMetadata!: FileUseCaseMetadataView;
  /** sId of the member who created the file. */
  owner!: string;
}

export class FileResponse {
  file!: FileView;
}

/** The addresses of a file, which http/ computes (absolute, the upload one signed). */
type FileAddresses = Record<
  'path' | 'uploadUrl' | 'downloadUrl' | 'publicUrl',
  (workspaceSId: string, file: FileRecord) => string
>;

export function renderFile(file: FileRecord, workspaceSId: string, urls: FileAddresses): FileView {
  const ready = file.status === 'ready';
  return {
    sId: file.sId,
    id: file.sId,
    contentType: file.contentType,
    fileName: file.fileName,
    fileSize: file.fileSize,
    status: file.status,
    useCase: file.useCase,
    ...(file.status === 'created' && { uploadUrl: urls.uploadUrl(workspaceSId, file) }),
    version: file.version,
    ...(ready && { downloadUrl: urls.downloadUrl(workspaceSId, file) }),
    ...(ready && file.useCase === 'avatar' && { publicUrl: urls.publicUrl(workspaceSId, file) }),
    path: urls.path(workspaceSId, file),
    useCaseMetadata: { ...file.useCaseMetadata },
    owner: file.ownerSId,
  };
}
