import type { FileStatus, FileUseCase } from 'src/modules/files/domain/file';

export interface FileUseCaseMetadataView {
  conversationId?: string;
  spaceId?: string;
}

/** A file record; its URLs appear as its status allows them. */
export interface FileView {
  sId: string;
  id: string;
  contentType: string;
  fileName: string;
  fileSize: number;
  status: FileStatus;
  useCase: FileUseCase;
  uploadUrl?: string;
  version: number;
  downloadUrl?: string;
  publicUrl?: string;
  path: string;
  useCaseMetadata: FileUseCaseMetadataView;
  owner: string;
}
