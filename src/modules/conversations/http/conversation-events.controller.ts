import { Get, Headers, Param, Query, Req, Res, applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Auth, CurrentCaller } from 'src/platform/auth/auth.decorators';
import { Caller } from 'src/platform/auth/caller';
import { OnlyOn, WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { ConversationParams, MessageParams } from 'src/platform/http/route-params';
import { StreamQuery } from 'src/modules/conversations/http/dto/event-stream.dto';
import {
  CONVERSATION_STREAM_EVENTS,
  ConversationStreamEvent,
  MESSAGE_STREAM_EVENTS,
} from 'src/modules/conversations/application/views/conversation-event.view';
import { EVENT_STREAMS, EventStreamsHandler } from 'src/modules/conversations/http/event-streams.handler';

/** What every event stream declares: who may open it, its resume header, its errors. */
const EventStream = () =>
  applyDecorators(
    Auth({ scopes: ['read:conversation'] }),
    ApiHeader({ name: 'Last-Event-ID', required: false, example: '1042' }),
    ApiErrors(400, 404, 429),
  );

@ApiTags('conversations')
@ApiExtraModels(
  ConversationStreamEvent,
  ...Object.values(CONVERSATION_STREAM_EVENTS),
  ...Object.values(MESSAGE_STREAM_EVENTS),
)
@WorkspaceController('assistant/conversations/:cId')
export class ConversationEventsController {
  constructor(private readonly handler: EventStreamsHandler) {}

  @Get('events')
  @OnlyOn('spec')
  @Auth({ scopes: ['read:conversation'] })
  @ApiOperation({
    summary: 'Stream conversation events (endpoint 7): redirects to the SSE route, query kept.',
    description:
      'A member who can read the conversation, with `read:conversation`. Answers 307 to the same ' +
      'path under `/api/sse` (follow it: `curl -N -L`), after checking the key, the conversation ' +
      'and the resume cursor, so a bad request fails here with its envelope.',
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
    await this.handler.check(caller, params, query, lastEventId);
    // The same path under /api/sse, as the client wrote it (escapes and query kept).
    res.statusCode = 307;
    res.setHeader('Location', `/api/sse${(request.url ?? '').slice('/api'.length)}`);
    res.setHeader('Content-Length', '0');
    res.end();
  }

  @Get('events')
  @OnlyOn('sse')
  @EventStream()
  @ApiOperation({
    summary: 'The conversation event stream (Server-Sent Events).',
    description:
      'Each event is `id: <event id>`, `data: <event JSON>`, blank line. Resume with the Last-Event-ID header or the lastEventId query parameter (an event id: a 64-bit integer); without either, only new events are sent. A `: ping` comment every 15 s. The stream ends, with nothing more sent, once the caller loses access: its key revoked, or the member no longer able to read the conversation (re-checked at once after such a change, and every 30 s). A key holds at most 50 open streams and a workspace 1,000 per server process (configurable); one more is refused with 429 `rate_limit_error`.',
  })
  @ApiOkResponse({ content: { 'text/event-stream': { schema: EVENT_STREAMS.conversation.schema } } })
  async stream(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Query() query: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: ServerResponse,
  ): Promise<void> {
    await this.handler.serve(EVENT_STREAMS.conversation, res, caller, params, query, lastEventId);
  }

  @Get('messages/:mId/events')
  @OnlyOn('spec')
  @EventStream()
  @ApiOperation({
    summary: "Stream one agent message's events (Server-Sent Events).",
    description:
      "The message's tokens, tool calls (`tool_params`), calls waiting for approval (`tool_approve_execution`), finished actions (`agent_action_success`, `tool_error`) and outcome (`agent_message_success`, `agent_error`, `agent_generation_cancelled`), from the same durable log as the conversation stream: each is `id: <event id>`, `data: <event JSON>`, blank line. Without Last-Event-ID / lastEventId, the stream starts at the message's first event, so nothing is missed; with one, it resumes right after it. Same heartbeats, caps and access re-checks as the conversation stream. Any member who can read the conversation; needs `read:conversation`.",
  })
  @ApiOkResponse({ content: { 'text/event-stream': { schema: EVENT_STREAMS.message.schema } } })
  async messageStream(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
    @Query() query: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: ServerResponse,
  ): Promise<void> {
    await this.handler.serve(EVENT_STREAMS.message, res, caller, params, query, lastEventId);
  }

  @Get('events')
  @OnlyOn('public')
  @EventStream()
  @ApiOperation({
    summary: 'The conversation event stream, as Dust streams it (Server-Sent Events).',
    description:
      'The same events as endpoint 7, streamed here without a redirect, each framed as Dust frames them: `id: <event id>`, `data: {"eventId": "<event id>", "data": <event JSON>}`, blank line. Without Last-Event-ID / lastEventId, the stream starts with the events of the last 10 minutes (`SSE_V1_HISTORY_MS`), so a client that opens it right after posting misses nothing; with one, it resumes right after it. Same heartbeats, idle timeout, caps and access re-checks as endpoint 7. Any member who can read the conversation; needs `read:conversation`.',
  })
  @ApiOkResponse({ content: { 'text/event-stream': { schema: EVENT_STREAMS.publicConversation.schema } } })
  async publicStream(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Query() query: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: ServerResponse,
  ): Promise<void> {
    await this.handler.serve(EVENT_STREAMS.publicConversation, res, caller, params, query, lastEventId);
  }

  @Get('messages/:mId/events')
  @OnlyOn('public')
  @EventStream()
  @ApiOperation({
    summary: "Stream one agent message's events, as Dust streams them (Server-Sent Events).",
    description:
      'The events of the `/api/w/` form of this route, framed as Dust frames them: `id: <event id>`, `data: {"eventId": "<event id>", "data": <event JSON>}`, blank line. Each `tool_approve_execution` is followed, under the same id, by its `mcp_approve_execution` form (the same fields plus `toolName`, `serverName`, `description` and `input`), which Dust\'s high-level client waits for. For that client too, an `agent_action_success` action\'s `id` is its sId (a string; the `/api/w/` form and conversations carry the row id) with the call\'s `input`, and a `tool_error` carries `actionId`, `toolName` and `input`. The stream ends after the message\'s outcome (`agent_message_success`, `agent_error` or `agent_generation_cancelled`); resumed after its outcome, it ends at once. Without Last-Event-ID / lastEventId it starts at the message\'s first event. Any member who can read the conversation; needs `read:conversation`.',
  })
  @ApiOkResponse({ content: { 'text/event-stream': { schema: EVENT_STREAMS.publicMessage.schema } } })
  async publicMessageStream(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
    @Query() query: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: ServerResponse,
  ): Promise<void> {
    await this.handler.serve(EVENT_STREAMS.publicMessage, res, caller, params, query, lastEventId);
  }
}
