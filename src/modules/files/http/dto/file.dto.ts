import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { SID_PATTERN, WorkspaceParams } from 'src/platform/http/route-params';
import { FILE_USE_CASES, FileUseCase } from 'src/modules/files/domain/file';

/** Longer names are refused rather than cut: the stored name is cut to 255 characters anyway. */
const FILE_NAME_INPUT_MAX = 1024;

export class FileUseCaseMetadataDto {
  @ApiPropertyOptional({
    description: '`conversation` files: the conversation (10 base62 characters).',
    example: '3fZ0aBcDeF',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9A-Za-z]{10}$/, { message: 'conversationId must be 10 base62 characters' })
  conversationId?: string;

  @ApiPropertyOptional({
    description: '`folders_document` files (required): a space the caller can access.',
    example: 'vlt_3fZ0aBcDeF',
  })
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN, { message: 'spaceId must be a space sId' })
  spaceId?: string;
}

export class CreateFileDto {
  @ApiProperty({ example: 'text/plain' })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  contentType!: string;

  @ApiProperty({
    example: 'notes.txt',
    description: 'Stored without path separators or control characters, cut to 255 characters.',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(FILE_NAME_INPUT_MAX)
  fileName!: string;

  @ApiProperty({ example: 1024, description: 'The size in bytes; the upload may not exceed it.' })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  fileSize!: number;

  @ApiPropertyOptional({
    enum: FILE_USE_CASES,
    default: 'conversation',
    description: 'Left out: `conversation`, as Dust does.',
  })
  // Absent only: an explicit null is refused like any other value outside the list.
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(FILE_USE_CASES)
  useCase: FileUseCase = 'conversation';

  @ApiPropertyOptional({ type: FileUseCaseMetadataDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => FileUseCaseMetadataDto)
  useCaseMetadata?: FileUseCaseMetadataDto;
}

export class FileParams extends WorkspaceParams {
  @ApiProperty({ description: 'sId of the file (`fil_…`).', example: 'fil_Xq3Lm8Vb2T' })
  @IsString()
  fileId!: string;
}

export class FileQuery {
  @ApiPropertyOptional({ enum: ['download'], description: '`download`: the content instead of the record.' })
  @IsOptional()
  @IsIn(['download'])
  action?: 'download';
}
