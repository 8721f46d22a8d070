import { afterEach, describe, expect, it, jest } from '@jest/globals';
import {
  CONVERSATION_STREAM_TYPES,
  type ConversationEventLog,
  type StoredConversationEvent,
} from 'src/platform/events/conversation-event';
import { ConversationEventFeed } from 'src/platform/events/conversation-event-feed';
import type { EventDoorbell } from 'src/platform/events/event-doorbell';
import { FakeEventDoorbell } from 'test/fakes/event-doorbell';

/** A log of one conversation that counts its reads. */
function eventLog(events: StoredConversationEvent[]) {
  const log = {
    reads: 0,
    readAfter(conversationId: number, afterId: bigint, limit: number): Promise<StoredConversationEvent[]> {
      log.reads++;
      const after = events.filter((event) => event.id > afterId).slice(0, limit);
      return Promise.resolve(after.filter((event) => event.conversationId === conversationId));
    },
  };
  return log;
}

const stored = (id: bigint, text: string): StoredConversationEvent =>
  ({
    id,
    conversationId: 4,
    event: { type: 'user_message_new', text },
  }) as unknown as StoredConversationEvent;

function feedOver(events: StoredConversationEvent[]) {
  const log = eventLog(events);
  const doorbell = { subscribe: () => () => undefined } as unknown as EventDoorbell;
  return { log, feed: new ConversationEventFeed(log as unknown as ConversationEventLog, doorbell) };
}

describe('ConversationEventFeed', () => {
  it('answers the streams that ask for one position in one turn with one read, serialised once', async () => {
    const { log, feed } = feedOver([stored(7n, 'hello'), stored(9n, 'again')]);
    const sources = Array.from({ length: 100 }, () => feed.source(4, { types: CONVERSATION_STREAM_TYPES }));
    const batches = await Promise.all(sources.map((source) => source.read(5n, 200)));
    expect(log.reads).toBe(1);
    const hello = 'id: 7\ndata: {"type":"user_message_new","text":"hello"}\n\n';
    const again = 'id: 9\ndata: {"type":"user_message_new","text":"again"}\n\n';
    expect(batches[0]).toEqual([
      { id: 7n, frame: hello, chunk: `38\r\n${hello}\r\n` },
      { id: 9n, frame: again, chunk: `38\r\n${again}\r\n` },
    ]);
    for (const batch of batches) expect(batch[1].frame).toBe(batches[0][1].frame);
  });

  it('reads again for another position, and in a later turn at the same position', async () => {
    const events = [stored(7n, 'hello')];
    const { log, feed } = feedOver(events);
    const source = feed.source(4, { types: CONVERSATION_STREAM_TYPES });
    await Promise.all([source.read(5n, 200), source.read(7n, 200)]);
    expect(log.reads).toBe(2);
    events.push(stored(8n, 'committed since'));
    await new Promise((resolve) => setImmediate(resolve));
    expect((await source.read(7n, 200)).map((event) => event.id)).toEqual([8n]);
    expect(log.reads).toBe(3);
  });
});

describe('ConversationEventFeed.waitFor', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  /** Lets pending reads and their continuations run. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  function waitOver(events: StoredConversationEvent[]) {
    const log = eventLog(events);
    const doorbell = new FakeEventDoorbell();
    const feed = new ConversationEventFeed(log as unknown as ConversationEventLog, doorbell.asDoorbell());
    const seen: string[] = [];
    const wait = (timeoutMs: number) =>
      feed.waitFor(
        4,
        5n,
        { types: CONVERSATION_STREAM_TYPES },
        (event) => {
          const { text } = event as unknown as { text: string };
          seen.push(text);
          return text === 'answer';
        },
        timeoutMs,
      );
    return { log, doorbell, seen, wait };
  }

  it('reads again when the doorbell rings, never on its own, and lets go of the doorbell', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const events = [stored(3n, 'before the cursor'), stored(7n, 'question')];
    const { log, doorbell, seen, wait } = waitOver(events);
    let answered: boolean | undefined;
    const waiting = wait(60_000).then((result) => (answered = result));
    await settle();
    expect({ reads: log.reads, seen, answered }).toEqual({
      reads: 1,
      seen: ['question'],
      answered: undefined,
    });

    // Committed without a ring: half the bound passes, and the log is not read again.
    events.push(stored(9n, 'answer'));
    await jest.advanceTimersByTimeAsync(30_000);
    expect({ reads: log.reads, answered }).toEqual({ reads: 1, answered: undefined });

    doorbell.ring(4);
    await waiting;
    expect({ reads: log.reads, seen, answered }).toEqual({
      reads: 2,
      seen: ['question', 'answer'],
      answered: true,
    });
    expect(doorbell.subscriptionCount()).toBe(0);
  });

  it('reads a last time at the bound, so a missed ring costs time, not the event', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const events = [stored(7n, 'question')];
    const { log, doorbell, wait } = waitOver(events);
    const waiting = wait(1_000);
    await settle();
    events.push(stored(9n, 'answer'));
    await jest.advanceTimersByTimeAsync(1_000);
    expect(await waiting).toBe(true);
    expect(log.reads).toBe(2);
    expect(doorbell.subscriptionCount()).toBe(0);
  });

  it('answers false at the bound when what it waits for never comes', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const { doorbell, seen, wait } = waitOver([stored(7n, 'question')]);
    const waiting = wait(1_000);
    await settle();
    doorbell.ring(4);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(await waiting).toBe(false);
    // Each event is handed over once, however many times the log is read.
    expect(seen).toEqual(['question']);
    expect(doorbell.subscriptionCount()).toBe(0);
  });
});
