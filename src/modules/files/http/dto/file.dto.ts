import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { Integer, OneOf, Text } from 'src/platform/http/input-fields';
import { NestedObject } from 'src/platform/http/nested-input';
import { SID_PATTERN, WorkspaceParams } from 'src/platform/http/route-params';
import { FILE_USE_CASES, FileUseCase } from 'src/modules/files/domain/file';

/** Longer names are refused rather than cut: the stored name is cut to 255 characters anyway. */
const FILE_NAME_INPUT_MAX = 1024;

export class FileUseCaseMetadataDto {
  /**
   * `conversation` files: the conversation (10 base62 characters).
   * @example 3fZ0aBcDeF
   */
  @IsOptional()
  @IsString()
  @Matches(/^[0-9A-Za-z]{10}$/, { message: 'conversationId must be 10 base62 characters' })
  conversationId?: string;

  /**
   * `folders_document` files (required): a space the caller can access.
   * @example vlt_3fZ0aBcDeF
   */
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN, { message: 'spaceId must be a space sId' })
  spaceId?: string;
}

export class CreateFileDto {
  /** @example text/plain */
  @Text({ min: 1, max: 255 })
  contentType!: string;

  /**
   * Stored without path separators or control characters, cut to 255 characters.
   * @example notes.txt
   */
  @Text({ min: 1, max: FILE_NAME_INPUT_MAX })
  fileName!: string;

  /**
   * The size in bytes; the upload may not exceed it.
   * @example 1024
   */
  @Integer({ min: 0, max: Number.MAX_SAFE_INTEGER })
  fileSize!: number;

  /** Left out: `conversation`, as Dust does. */
  @ApiPropertyOptional()
  // Absent only: an explicit null is refused like any other value outside the list.
  @OneOf(FILE_USE_CASES, { presence: 'omittable' })
  useCase: FileUseCase = 'conversation';

  @IsOptional()
  @NestedObject(() => FileUseCaseMetadataDto)
  useCaseMetadata?: FileUseCaseMetadataDto;
}

export class FileParams extends WorkspaceParams {
  /**
   * sId of the file (`fil_…`).
   * @example fil_Xq3Lm8Vb2T
   */
  @IsString()
  fileId!: string;
}

export class FileQuery {
  /** `download`: the content instead of the record, as an attachment; `view`: the content, shown inline. */
  @OneOf(['download', 'view'], { presence: 'optional' })
  action?: 'download' | 'view';

  /**
   * With `action=view` (Dust's `getFileContent`): `original`, the bytes as uploaded, the only version kept.
   * @example original
   */
  @OneOf(['original'], { presence: 'optional' })
  version?: 'original';
}
