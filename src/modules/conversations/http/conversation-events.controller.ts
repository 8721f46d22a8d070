import { Controller, Get, Headers, Param, Query, Req, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { ConversationEventLog, MAX_EVENT_ID } from 'src/platform/events/conversation-event';
import {
  CONVERSATION_EVENT_SCHEMA,
  ConversationStreamEvent,
} from 'src/platform/events/conversation-event.schemas';
import { ConversationEventFeed } from 'src/platform/events/conversation-event-feed';
import { ApiErrors } from 'src/platform/http/api-errors';
import { ConversationParams } from 'src/platform/http/route-params';
import { SseStreams, StreamAccessCheck } from 'src/platform/http/sse-streams';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';

/** Event ids are bigint positions in the log: digits, at most the 64-bit maximum. */
const EVENT_ID = /^\d{1,19}$/;

class StreamQuery {
  @IsOptional()
  @IsString()
  lastEventId?: string;
}

function resumeCursor(header: string | undefined, query: string | undefined): bigint | null {
  const cursor = header ?? query;
  if (cursor === undefined || cursor === '') return null;
  const id = EVENT_ID.test(cursor.replace(/^0+(?=\d)/, '')) ? BigInt(cursor) : null;
  if (id === null || id > MAX_EVENT_ID) {
    throw new InvalidRequestError(
      'Last-Event-ID / lastEventId: must be the id of an event this stream sent.',
    );
  }
  return id;
}

@ApiTags('conversations')
@ApiExtraModels(ConversationStreamEvent)
@Controller()
export class ConversationEventsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly events: ConversationEventLog,
    private readonly feed: ConversationEventFeed,
    private readonly streams: SseStreams,
  ) {}

  @Get('api/w/:wId/assistant/conversations/:cId/events')
  @Auth({ scopes: ['read:conversation'] })
  @ApiOperation({
    summary: 'Stream conversation events (endpoint 7): redirects to the SSE route, query kept.',
  })
  @ApiResponse({
    status: 307,
    description: 'Redirect to /api/sse/w/{wId}/assistant/conversations/{cId}/events',
  })
  @ApiErrors(400, 404)
  async redirect(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Query() query: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: IncomingMessage,
    @Res() res: ServerResponse,
  ): Promise<void> {
    resumeCursor(lastEventId, query.lastEventId);
    await this.conversations.get(caller, params.cId);
    // The same path under /api/sse, as the client wrote it (escapes and query kept).
    res.statusCode = 307;
    res.setHeader('Location', `/api/sse${(request.url ?? '').slice('/api'.length)}`);
    res.setHeader('Content-Length', '0');
    res.end();
  }

  @Get('api/sse/w/:wId/assistant/conversations/:cId/events')
  @Auth({ scopes: ['read:conversation'] })
  @ApiOperation({
    summary: 'The conversation event stream (Server-Sent Events).',
    description:
      'Each event is `id: <event id>`, `data: <event JSON>`, blank line. Resume with the Last-Event-ID header or the lastEventId query parameter (an event id: a 64-bit integer); without either, only new events are sent. A `: ping` comment every 15 s. The stream ends, with nothing more sent, once the caller loses access: its key revoked, or the member no longer able to read the conversation (re-checked at once after such a change, and every 30 s). A key holds at most 50 open streams and a workspace 1,000 per server process (configurable); one more is refused with 429 `rate_limit_error`.',
  })
  @ApiHeader({ name: 'Last-Event-ID', required: false, example: '1042' })
  @ApiOkResponse({ content: { 'text/event-stream': { schema: CONVERSATION_EVENT_SCHEMA } } })
  @ApiErrors(400, 404, 429)
  async stream(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Query() query: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: ServerResponse,
  ): Promise<void> {
    const cursor = resumeCursor(lastEventId, query.lastEventId);
    const conversation = await this.conversations.get(caller, params.cId);
    const fromId = cursor ?? (await this.events.lastId(conversation.id));
    this.streams.start(
      res,
      this.feed.source(conversation.id),
      fromId,
      {
        keyId: caller.keyId,
        workspaceId: caller.workspaceId,
        userId: caller.userId,
        conversationId: conversation.id,
      },
      this.stillReadable,
    );
  }

  /** One function for every stream, so their re-checks are batched together. */
  private readonly stillReadable: StreamAccessCheck = (grants) => this.conversations.stillReadable(grants);
}
