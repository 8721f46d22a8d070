import { Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { Caller } from 'src/platform/auth/caller';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { ConversationEventLog, EventFilter, MAX_EVENT_ID } from 'src/platform/events/conversation-event';
import { ConversationEventFeed } from 'src/platform/events/conversation-event-feed';
import { SPEC_FRAMING, SseFraming } from 'src/platform/http/sse-stream';
import { SseStreams, StreamAccessCheck, StreamGrant } from 'src/platform/http/sse-streams';
import { ConversationParams, MessageParams } from 'src/platform/http/route-params';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import {
  CONVERSATION_STREAM_EVENTS,
  CONVERSATION_STREAM_TYPES,
  ConversationEvent,
  ConversationEventType,
  MESSAGE_STREAM_EVENTS,
  MESSAGE_STREAM_TYPES,
  eventUnionSchema,
} from 'src/modules/conversations/application/views/conversation-event.view';
import { ConversationsConfig } from 'src/modules/conversations/conversations.config';
import { StreamQuery } from 'src/modules/conversations/http/dto/event-stream.dto';
import {
  DUST_CONVERSATION_FRAMING,
  DUST_MESSAGE_FRAMING,
  MESSAGE_OUTCOMES,
  dustEnvelope,
} from 'src/modules/conversations/http/dust-events.presenter';

/** A conversation stream's grant: it reads one conversation. */
type ConversationGrant = StreamGrant & { conversationId: number };

/** Event ids are bigint positions in the log: digits, at most the 64-bit maximum. */
const EVENT_ID = /^\d{1,19}$/;

/**
 * One of the event streams: where it starts, how it frames its events. It sends the conversation's
 * events, or those of one agent message when the route names one.
 */
export interface EventStreamKind {
  /**
   * Where it starts when the client names no event: at the newest one, after the last
   * `SSE_V1_HISTORY_MS` (so a client that opens it right after posting misses nothing), or at the
   * message's first event.
   */
  from: 'newest' | 'recent' | 'first';
  framing: SseFraming<ConversationEvent>;
  /** It ends after one of these; resumed after it, it ends at once. */
  endsAfter?: readonly ConversationEventType[];
  /** What its `data:` carries, in the OpenAPI document. */
  schema: object;
}

const CONVERSATION_EVENTS = eventUnionSchema(CONVERSATION_STREAM_EVENTS);
const MESSAGE_EVENTS = eventUnionSchema(MESSAGE_STREAM_EVENTS);

/** The four streams: endpoint 7 and an agent message's, each also as Dust streams it. */
export const EVENT_STREAMS = {
  conversation: { from: 'newest', framing: SPEC_FRAMING, schema: CONVERSATION_EVENTS },
  message: { from: 'first', framing: SPEC_FRAMING, schema: MESSAGE_EVENTS },
  publicConversation: {
    from: 'recent',
    framing: DUST_CONVERSATION_FRAMING,
    schema: dustEnvelope(CONVERSATION_EVENTS),
  },
  publicMessage: {
    from: 'first',
    framing: DUST_MESSAGE_FRAMING,
    endsAfter: MESSAGE_OUTCOMES,
    schema: dustEnvelope(MESSAGE_EVENTS),
  },
} satisfies Record<string, EventStreamKind>;

/** Serves every event stream: checks the request, then streams while the caller may read. */
@Injectable()
export class EventStreamsHandler {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly events: ConversationEventLog<ConversationEvent>,
    private readonly feed: ConversationEventFeed<ConversationEvent>,
    private readonly streams: SseStreams,
    private readonly config: ConversationsConfig,
  ) {}

  /** Refuses a malformed cursor or a conversation the caller cannot read, before any stream opens. */
  async check(
    caller: Caller,
    params: ConversationParams,
    query: StreamQuery,
    lastEventId: string | undefined,
  ): Promise<void> {
    resumeCursor(lastEventId, query);
    await this.conversations.get(caller, params.cId);
  }

  /**
   * Streams what `stream` sends of the conversation, or of its agent message `mId`, after the
   * client's cursor (the Last-Event-ID header, else the query's).
   */
  async serve(
    stream: EventStreamKind,
    res: ServerResponse,
    caller: Caller,
    params: ConversationParams & Partial<MessageParams>,
    query: StreamQuery,
    lastEventId: string | undefined,
  ): Promise<void> {
    const cursor = resumeCursor(lastEventId, query);
    const conversation = await this.conversations.get(caller, params.cId);
    const filter: EventFilter<ConversationEventType> = { types: CONVERSATION_STREAM_TYPES };
    if (params.mId !== undefined) {
      const message = await this.messages.findMessage(caller, conversation, params.mId);
      if (message.type !== 'agent_message')
        throw new InvalidRequestError('Only agent messages have an event stream of their own.');
      filter.types = MESSAGE_STREAM_TYPES;
      filter.messageId = message.sId;
    }
    const fromId = cursor ?? (await this.start(conversation.id, stream));
    if (stream.endsAfter && (await this.endedBy(conversation.id, filter, stream.endsAfter, fromId))) {
      // The client already has the last event: nothing more will come.
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache' });
      res.end();
      return;
    }
    const grant: ConversationGrant = {
      keyId: caller.keyId,
      workspaceId: caller.workspaceId,
      userId: caller.userId,
      conversationId: conversation.id,
    };
    const source = this.feed.source(conversation.id, filter, stream.framing);
    this.streams.start(res, source, fromId, grant, this.stillReadable);
  }

  private async start(conversationId: number, stream: EventStreamKind): Promise<bigint> {
    if (stream.from === 'newest') return this.events.lastId(conversationId);
    if (stream.from === 'recent') return this.events.lastIdOlderThan(conversationId, this.config.v1HistoryMs);
    return 0n;
  }

  /** Whether one of the `last` events is at or before `fromId`, so the client has it already. */
  private async endedBy(
    conversationId: number,
    filter: EventFilter<ConversationEventType>,
    last: readonly ConversationEventType[],
    fromId: bigint,
  ): Promise<boolean> {
    const [outcome] = await this.events.readAfter(conversationId, 0n, 1, { ...filter, types: last });
    return outcome !== undefined && outcome.id <= fromId;
  }

  /** One function for every stream, so their re-checks are batched together. */
  private readonly stillReadable: StreamAccessCheck<ConversationGrant> = (grants) =>
    this.conversations.stillReadable(grants);
}

function resumeCursor(header: string | undefined, query: StreamQuery): bigint | null {
  const cursor = header ?? query.lastEventId;
  if (cursor === undefined || cursor === '') return null;
  const id = EVENT_ID.test(cursor.replace(/^0+(?=\d)/, '')) ? BigInt(cursor) : null;
  if (id === null || id > MAX_EVENT_ID) {
    throw new InvalidRequestError(
      'Last-Event-ID / lastEventId: must be the id of an event this stream sent.',
    );
  }
  return id;
}
