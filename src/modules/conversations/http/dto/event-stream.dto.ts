import { IsOptional, IsString } from 'class-validator';

/** The query of every event stream: where to resume. */
export class StreamQuery {
  /**
   * Resume after this event id (as the Last-Event-ID header does); `0` replays the stream from its start.
   * @example "0"
   */
  @IsOptional()
  @IsString()
  lastEventId?: string;
}
