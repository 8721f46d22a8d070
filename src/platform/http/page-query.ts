import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { Integer } from 'src/platform/http/input-fields';

/** The query of every cursor-paged list: a page size and the previous page's `nextCursor`. */
export class PageQuery {
  @ApiPropertyOptional({ default: 50 })
  @Type(() => Number)
  @Integer({ min: 1, max: 100, presence: 'optional' })
  limit?: number;

  // Not a `Text`: this file is outside the Swagger plugin's reach, and the bound was never documented.
  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  cursor?: string;
}
