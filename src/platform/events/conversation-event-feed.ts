import { Injectable } from '@nestjs/common';
import { AsyncResource } from 'node:async_hooks';
import {
  ConversationEventLog,
  EventFilter,
  EventPosition,
  LoggedEvent,
} from 'src/platform/events/conversation-event';
import { EventDoorbell } from 'src/platform/events/event-doorbell';
import { SPEC_FRAMING, SseEvent, SseFraming, SseSource } from 'src/platform/http/sse-stream';

/** Events one read of a wait takes at most; a full batch is followed at once by the next. */
const WAIT_BATCH = 100;
/** Positions one statement reads at most: a few hundred conversations a turn make a few statements. */
export const POSITIONS_PER_READ = 100;

/** A read asked for and not yet sent: every stream that asks for its position before then shares it. */
interface PendingRead {
  position: EventPosition;
  events: Promise<SseEvent[]>;
  settle: (events: SseEvent[]) => void;
  fail: (error: unknown) => void;
}

/** The reads of one turn that share a filter, a framing and a limit: one statement between them. */
interface ReadGroup<Event extends LoggedEvent> {
  filter: EventFilter<Event['type']>;
  framing: SseFraming<Event>;
  limit: number;
  reads: Map<string, PendingRead>;
}

/**
 * The event log as SSE sources, and as waits for events to come. A notification rings every
 * subscriber of a conversation in one synchronous loop, a commit rings many conversations in one
 * turn of the event loop, and so does the slow poll: the reads asked for in a turn are sent
 * together when it ends, one statement for up to POSITIONS_PER_READ positions, and the streams
 * that ask for the same position share one read whose events are serialised once. A stream only
 * joins a read not yet sent, so none is handed events older than the ring that woke it. Like the
 * log, it is typed by its reader: `ConversationEventFeed<ConversationEvent>`.
 */
@Injectable()
export class ConversationEventFeed<Event extends LoggedEvent = LoggedEvent> {
  private groups = new Map<string, ReadGroup<Event>>();
  private readonly sendDetached = AsyncResource.bind(() => this.send());

  constructor(
    private readonly log: ConversationEventLog<Event>,
    private readonly doorbell: EventDoorbell,
  ) {}

  /**
   * The events of a conversation that `filter` selects, framed by `framing`; streams with the same
   * filter and framing share reads.
   */
  source(
    conversationId: number,
    filter: EventFilter<Event['type']>,
    framing: SseFraming<Event> = SPEC_FRAMING,
  ): SseSource {
    const filterKey = `${filter.messageId ?? ''}:${filter.types.join(',')}:${framing.name}`;
    return {
      read: (afterId, limit) => this.read({ conversationId, afterId }, limit, filter, filterKey, framing),
      subscribe: (ring) => this.doorbell.subscribe(conversationId, ring),
    };
  }

  private read(
    position: EventPosition,
    limit: number,
    filter: EventFilter<Event['type']>,
    filterKey: string,
    framing: SseFraming<Event>,
  ): Promise<SseEvent[]> {
    const groupKey = `${limit}:${filterKey}`;
    let group = this.groups.get(groupKey);
    if (!group) {
      if (this.groups.size === 0) setImmediate(this.sendDetached);
      group = { filter, framing, limit, reads: new Map() };
      this.groups.set(groupKey, group);
    }
    const readKey = `${position.conversationId}:${position.afterId}`;
    let read = group.reads.get(readKey);
    if (!read) {
      let settle!: (events: SseEvent[]) => void;
      let fail!: (error: unknown) => void;
      const events = new Promise<SseEvent[]>((resolve, reject) => ((settle = resolve), (fail = reject)));
      read = { position, events, settle, fail };
      group.reads.set(readKey, read);
    }
    return read.events;
  }

  /** Sends the turn's reads: one statement per group and POSITIONS_PER_READ positions. */
  private send(): void {
    const groups = [...this.groups.values()];
    this.groups = new Map();
    for (const { filter, framing, limit, reads } of groups) {
      const pending = [...reads.values()];
      for (let from = 0; from < pending.length; from += POSITIONS_PER_READ) {
        const part = pending.slice(from, from + POSITIONS_PER_READ);
        this.log
          .readAfterMany(
            part.map((read) => read.position),
            limit,
            filter,
          )
          .then((read) =>
            part.forEach((pendingRead, i) =>
              pendingRead.settle(read[i].map((stored) => framing.frame(stored.id, stored.event))),
            ),
          )
          // A read already settled ignores the failure.
          .catch((error: unknown) => part.forEach((pendingRead) => pendingRead.fail(error)));
      }
    }
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
    filter: EventFilter<Event['type']>,
    enough: (event: Event) => boolean,
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
