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
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import {
  CONVERSATION_STREAM_TYPES,
  ConversationEvent,
  ConversationEventLog,
  ConversationEventType,
  EventFilter,
  MAX_EVENT_ID,
  MESSAGE_STREAM_TYPES,
} from 'src/platform/events/conversation-event';
import {
  CONVERSATION_EVENT_SCHEMA,
  ConversationStreamEvent,
  MESSAGE_EVENT_SCHEMA,
} from 'src/platform/events/conversation-event.schemas';
import { ConversationEventFeed } from 'src/platform/events/conversation-event-feed';
import { OnlyOn, WorkspaceController } from 'src/platform/http/api-families';
import { ApiErrors } from 'src/platform/http/api-errors';
import { ConversationParams, MessageParams } from 'src/platform/http/route-params';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { SseCompanion, SseFraming, SseReshape, dustFraming } from 'src/platform/http/sse-stream';
import { SseStreams, StreamAccessCheck, StreamGrant } from 'src/platform/http/sse-streams';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { ConversationsConfig } from 'src/modules/conversations/conversations.config';
import { StreamQuery } from 'src/modules/conversations/http/dto/event-stream.dto';

/** A conversation stream's grant: it reads one conversation. */
type ConversationGrant = StreamGrant & { conversationId: number };

/** Event ids are bigint positions in the log: digits, at most the 64-bit maximum. */
const EVENT_ID = /^\d{1,19}$/;

/** An agent message's outcome: its own stream on the public family ends after it. */
const MESSAGE_OUTCOMES: readonly ConversationEventType[] = [
  'agent_message_success',
  'agent_error',
  'agent_generation_cancelled',
];

/** Dust's framing of an event on the public family's streams, in the OpenAPI document. */
const dustEnvelope = (event: object) => ({
  type: 'object',
  required: ['eventId', 'data'],
  properties: { eventId: { type: 'string', example: '1042' }, data: event },
});

/**
 * Dust's high-level client (`agents.streamMessage`, 1.2.8) waits for an approval under the event's
 * former name, `mcp_approve_execution`, with flat fields: it follows each `tool_approve_execution`.
 */
const FLAT_APPROVAL: SseCompanion = {
  name: 'mcp_approve_execution',
  of: (data) => {
    const event = data as ConversationEvent;
    if (event.type !== 'tool_approve_execution') return null;
    const { toolName, mcpServerName, agentName } = event.metadata;
    return {
      ...event,
      type: 'mcp_approve_execution',
      toolName,
      serverName: mcpServerName,
      description: `${agentName} asks to run ${toolName} of ${mcpServerName}.`,
      input: event.inputs,
    };
  },
};

/** The fields of an action event's `action` that Dust's high-level client reads. */
interface StreamedAction {
  sId: string;
  toolName: string;
  params: Record<string, unknown>;
}

/**
 * Dust's high-level client (1.2.8) keeps an `agent_action_success` only when `action.id` is a
 * string, and reads a `tool_error`'s `actionId`, `toolName` and `input` at its top level, where its
 * own schemas type `id` a number and carry neither: on the message stream it reads, an action's
 * `id` is its sId (the id `validateAction` takes) and both events carry the call's `input`.
 */
const HIGH_LEVEL_ACTIONS: SseReshape = {
  name: 'high-level-actions',
  of: (data) => {
    const event = data as ConversationEvent;
    if (event.type === 'agent_action_success') {
      const action = event.action as StreamedAction;
      return { ...event, action: { ...action, id: action.sId, input: action.params } };
    }
    if (event.type === 'tool_error') {
      const action = event.action as StreamedAction;
      return { ...event, actionId: action.sId, toolName: action.toolName, input: action.params };
    }
    return event;
  },
};

const V1_CONVERSATION_FRAMING = dustFraming();
const V1_MESSAGE_FRAMING = dustFraming(MESSAGE_OUTCOMES, FLAT_APPROVAL, HIGH_LEVEL_ACTIONS);

/** What every event stream declares: who may open it, its resume header, its errors. */
const EventStream = () =>
  applyDecorators(
    Auth({ scopes: ['read:conversation'] }),
    ApiHeader({ name: 'Last-Event-ID', required: false, example: '1042' }),
    ApiErrors(400, 404, 429),
  );

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
@WorkspaceController('assistant/conversations/:cId')
export class ConversationEventsController {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly events: ConversationEventLog,
    private readonly feed: ConversationEventFeed,
    private readonly streams: SseStreams,
    private readonly config: ConversationsConfig,
  ) {}

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
    resumeCursor(lastEventId, query.lastEventId);
    await this.conversations.get(caller, params.cId);
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
  @ApiOkResponse({ content: { 'text/event-stream': { schema: CONVERSATION_EVENT_SCHEMA } } })
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
    this.open(res, caller, conversation.id, { types: CONVERSATION_STREAM_TYPES }, fromId);
  }

  @Get('messages/:mId/events')
  @OnlyOn('spec')
  @EventStream()
  @ApiOperation({
    summary: "Stream one agent message's events (Server-Sent Events).",
    description:
      "The message's tokens, tool calls (`tool_params`), calls waiting for approval (`tool_approve_execution`), finished actions (`agent_action_success`, `tool_error`) and outcome (`agent_message_success`, `agent_error`, `agent_generation_cancelled`), from the same durable log as the conversation stream: each is `id: <event id>`, `data: <event JSON>`, blank line. Without Last-Event-ID / lastEventId, the stream starts at the message's first event, so nothing is missed; with one, it resumes right after it. Same heartbeats, caps and access re-checks as the conversation stream. Any member who can read the conversation; needs `read:conversation`.",
  })
  @ApiOkResponse({ content: { 'text/event-stream': { schema: MESSAGE_EVENT_SCHEMA } } })
  async messageStream(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
    @Query() query: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: ServerResponse,
  ): Promise<void> {
    const cursor = resumeCursor(lastEventId, query.lastEventId);
    const conversation = await this.conversations.get(caller, params.cId);
    const message = await this.messages.findMessage(caller, conversation, params.mId);
    if (message.type !== 'agent_message')
      throw new InvalidRequestError('Only agent messages have an event stream of their own.');
    this.open(
      res,
      caller,
      conversation.id,
      { types: MESSAGE_STREAM_TYPES, messageId: message.sId },
      cursor ?? 0n,
    );
  }

  @Get('events')
  @OnlyOn('public')
  @EventStream()
  @ApiOperation({
    summary: 'The conversation event stream, as Dust streams it (Server-Sent Events).',
    description:
      'The same events as endpoint 7, streamed here without a redirect, each framed as Dust frames them: `id: <event id>`, `data: {"eventId": "<event id>", "data": <event JSON>}`, blank line. Without Last-Event-ID / lastEventId, the stream starts with the events of the last 10 minutes (`SSE_V1_HISTORY_MS`), so a client that opens it right after posting misses nothing; with one, it resumes right after it. Same heartbeats, idle timeout, caps and access re-checks as endpoint 7. Any member who can read the conversation; needs `read:conversation`.',
  })
  @ApiOkResponse({ content: { 'text/event-stream': { schema: dustEnvelope(CONVERSATION_EVENT_SCHEMA) } } })
  async publicStream(
    @CurrentCaller() caller: Caller,
    @Param() params: ConversationParams,
    @Query() query: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: ServerResponse,
  ): Promise<void> {
    const cursor = resumeCursor(lastEventId, query.lastEventId);
    const conversation = await this.conversations.get(caller, params.cId);
    const fromId = cursor ?? (await this.events.lastIdOlderThan(conversation.id, this.config.v1HistoryMs));
    this.open(
      res,
      caller,
      conversation.id,
      { types: CONVERSATION_STREAM_TYPES },
      fromId,
      V1_CONVERSATION_FRAMING,
    );
  }

  @Get('messages/:mId/events')
  @OnlyOn('public')
  @EventStream()
  @ApiOperation({
    summary: "Stream one agent message's events, as Dust streams them (Server-Sent Events).",
    description:
      'The events of the `/api/w/` form of this route, framed as Dust frames them: `id: <event id>`, `data: {"eventId": "<event id>", "data": <event JSON>}`, blank line. Each `tool_approve_execution` is followed, under the same id, by its `mcp_approve_execution` form (the same fields plus `toolName`, `serverName`, `description` and `input`), which Dust\'s high-level client waits for. For that client too, an `agent_action_success` action\'s `id` is its sId (a string; the `/api/w/` form and conversations carry the row id) with the call\'s `input`, and a `tool_error` carries `actionId`, `toolName` and `input`. The stream ends after the message\'s outcome (`agent_message_success`, `agent_error` or `agent_generation_cancelled`); resumed after its outcome, it ends at once. Without Last-Event-ID / lastEventId it starts at the message\'s first event. Any member who can read the conversation; needs `read:conversation`.',
  })
  @ApiOkResponse({ content: { 'text/event-stream': { schema: dustEnvelope(MESSAGE_EVENT_SCHEMA) } } })
  async publicMessageStream(
    @CurrentCaller() caller: Caller,
    @Param() params: MessageParams,
    @Query() query: StreamQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() res: ServerResponse,
  ): Promise<void> {
    const cursor = resumeCursor(lastEventId, query.lastEventId) ?? 0n;
    const conversation = await this.conversations.get(caller, params.cId);
    const message = await this.messages.findMessage(caller, conversation, params.mId);
    if (message.type !== 'agent_message')
      throw new InvalidRequestError('Only agent messages have an event stream of their own.');
    const [outcome] = await this.events.readAfter(conversation.id, 0n, 1, {
      types: MESSAGE_OUTCOMES,
      messageId: message.sId,
    });
    if (outcome && outcome.id <= cursor) {
      // The client already has the outcome: nothing more will come.
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' });
      res.end();
      return;
    }
    const filter = { types: MESSAGE_STREAM_TYPES, messageId: message.sId };
    this.open(res, caller, conversation.id, filter, cursor, V1_MESSAGE_FRAMING);
  }

  /** Streams the conversation's events that `filter` selects, after `fromId`, while the caller may read them. */
  private open(
    res: ServerResponse,
    caller: Caller,
    conversationId: number,
    filter: EventFilter,
    fromId: bigint,
    framing?: SseFraming,
  ) {
    const grant: ConversationGrant = {
      keyId: caller.keyId,
      workspaceId: caller.workspaceId,
      userId: caller.userId,
      conversationId,
    };
    const source = this.feed.source(conversationId, filter, framing);
    this.streams.start(res, source, fromId, grant, this.stillReadable);
  }

  /** One function for every stream, so their re-checks are batched together. */
  private readonly stillReadable: StreamAccessCheck<ConversationGrant> = (grants) =>
    this.conversations.stillReadable(grants);
}
