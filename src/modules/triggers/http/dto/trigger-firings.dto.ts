import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Integer, Text } from 'src/platform/http/input-fields';
import {
  FIRINGS_PAGE_DEFAULT,
  FIRINGS_PAGE_MAX,
} from 'src/modules/triggers/application/trigger-firings.reader';

export class TriggerFiringsQuery {
  /** How many firings, newest first. */
  @ApiPropertyOptional({ default: FIRINGS_PAGE_DEFAULT })
  @Type(() => Number)
  @Integer({ min: 1, max: FIRINGS_PAGE_MAX, presence: 'optional' })
  limit?: number;

  /**
   * The `nextCursor` of the previous page: the firings older than it.
   * @example "1842"
   */
  @Text({ max: 32, presence: 'optional' })
  cursor?: string;
}
