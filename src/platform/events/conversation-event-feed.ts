import { Injectable } from '@nestjs/common';
import { ConversationEvent, ConversationEventLog, EventFilter } from 'src/platform/events/conversation-event';
import { EventDoorbell } from 'src/platform/events/event-doorbell';
import { SPEC_FRAMING, SseEvent, SseFraming, SseSource } from 'src/platform/http/sse-stream';

/** Events one read of a wait takes at most; a full batch is followed at once by the next. */
const WAIT_BATCH = 100;

/**
 * The event log as SSE sources, and as waits for events to come. A notification rings every subscriber of a conversation in one
 * synchronous loop, and so does the slow poll: the streams that then ask for the same position
 * share one query, and each event is serialised once. A read is shared only until the turn of
 * the event loop that started it ends (its next tick); notifications and polls each arrive in a
 * turn of their own, so no stream joins a read older than the ring that woke it.
 */
@Injectable()
export class ConversationEventFeed {
  private readonly reads = new Map<string, Promise<SseEvent[]>>();

  constructor(
    private readonly log: ConversationEventLog,
    private readonly doorbell: EventDoorbell,
  ) {}

  /**
   * The events of a conversation that `filter` selects, framed by `framing`; streams with the same
   * filter and framing share reads.
   */
  source(conversationId: number, filter: EventFilter, framing: SseFraming = SPEC_FRAMING): SseSource {
    const filterKey = `${filter.messageId ?? ''}:${filter.types.join(',')}:${framing.name}`;
    return {
      read: (afterId, limit) => this.read(conversationId, afterId, limit, filter, filterKey, framing),
      subscribe: (ring) => this.doorbell.subscribe(conversationId, ring),
    };
  }

  private read(
    conversationId: number,
    afterId: bigint,
    limit: number,
    filter: EventFilter,
    filterKey: string,
    framing: SseFraming,
  ): Promise<SseEvent[]> {
    const key = `${conversationId}:${afterId}:${limit}:${filterKey}`;
    let read = this.reads.get(key);
    if (!read) {
      read = this.log
        .readAfter(conversationId, afterId, limit, filter)
        .then((stored) => stored.map((event) => framing.frame(event.id, event.event)));
      this.reads.set(key, read);
      process.nextTick(() => this.reads.delete(key));
    }
    return read;
  }

  /**
   * Hands the events of a conversation that `filter` selects, after `afterId`, to `enough` in
   * order until it answers true. They are read at once, then each time the doorbell rings, and a
   * last time when `timeoutMs` has passed (a missed ring costs time, never an event). Resolves
   * whether `enough` was satisfied in time.
   */
  async waitFor(
    conversationId: number,
    afterId: bigint,
    filter: EventFilter,
    enough: (event: ConversationEvent) => boolean,
    timeoutMs: number,
  ): Promise<boolean> {
    let cursor = afterId;
    let rung = true;
    let timedOut = false;
    let wake: (() => void) | undefined;
    const ring = () => {
      rung = true;
      wake?.();
    };
    const unsubscribe = this.doorbell.subscribe(conversationId, ring);
    const timer = setTimeout(() => {
      timedOut = true;
      ring();
    }, timeoutMs);
    try {
      for (;;) {
        while (rung) {
          rung = false;
          const events = await this.log.readAfter(conversationId, cursor, WAIT_BATCH, filter);
          for (const stored of events) {
            cursor = stored.id;
            if (enough(stored.event)) return true;
          }
          if (events.length === WAIT_BATCH) rung = true;
        }
        if (timedOut) return false;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      clearTimeout(timer);
      unsubscribe();
    }
  }
}
