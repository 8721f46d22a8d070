import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  FILE_STATUSES,
  FILE_USE_CASES,
  FileRecord,
  FileStatus,
  FileUseCase,
} from 'src/modules/files/domain/file';
import type { FileUrls } from 'src/modules/files/http/file-urls';

export class FileUseCaseMetadataView {
  @ApiPropertyOptional({ description: 'The conversation of a `conversation` file.' })
  conversationId?: string;

  @ApiPropertyOptional({ description: 'The space of a `folders_document` file.' })
  spaceId?: string;
}

export class FileView {
  @ApiProperty({ example: 'fil_3fZ0aBcDeF' }) sId!: string;
  @ApiProperty({ example: 'fil_3fZ0aBcDeF', description: 'Same as sId.' }) id!: string;
  @ApiProperty({ example: 'text/plain' }) contentType!: string;
  @ApiProperty({ example: 'notes.txt' }) fileName!: string;
  @ApiProperty({ description: 'Bytes: as declared until ready, then as stored.' }) fileSize!: number;
  @ApiProperty({ enum: FILE_STATUSES }) status!: FileStatus;
  @ApiProperty({ enum: FILE_USE_CASES }) useCase!: FileUseCase;
  @ApiPropertyOptional({
    description:
      'While created: the pre-signed upload URL (POST multipart/form-data, one part `file`), valid without an API key until the upload window closes.',
  })
  uploadUrl?: string;
  @ApiProperty({ description: 'Counts the changes of the record.' }) version!: number;
  @ApiPropertyOptional({ description: 'Once ready: where the content is downloaded (with a key).' })
  downloadUrl?: string;
  @ApiPropertyOptional({ description: 'Ready avatars: where anyone reads the image, without a key.' })
  publicUrl?: string;
  @ApiProperty({ example: '/api/w/3fZ0aBcDeF/files/fil_3fZ0aBcDeF', description: "The file's API path." })
  path!: string;
  @ApiProperty({ type: FileUseCaseMetadataView }) useCaseMetadata!: FileUseCaseMetadataView;
  @ApiProperty({ description: 'sId of the member who created the file.' }) owner!: string;
}

export class FileResponse {
  @ApiProperty({ type: FileView }) file!: FileView;
}

export function presentFile(file: FileRecord, workspaceSId: string, urls: FileUrls): FileView {
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
