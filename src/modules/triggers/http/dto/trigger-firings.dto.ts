import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  FIRINGS_PAGE_DEFAULT,
  FIRINGS_PAGE_MAX,
} from 'src/modules/triggers/application/trigger-firings.reader';

export class TriggerFiringsQuery {
  /** How many firings, newest first. */
  @ApiPropertyOptional({ default: FIRINGS_PAGE_DEFAULT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(FIRINGS_PAGE_MAX)
  limit?: number;

  /**
   * The `nextCursor` of the previous page: the firings older than it.
   * @example "1842"
   */
  @IsOptional()
  @IsString()
  @MaxLength(32)
  cursor?: string;
}
