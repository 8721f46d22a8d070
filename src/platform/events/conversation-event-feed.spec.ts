import { afterEach, describe, expect, it, jest } from '@jest/globals';
import {
  type ConversationEventLog,
  type EventPosition,
  type StoredConversationEvent,
} from 'src/platform/events/conversation-event';
import { ConversationEventFeed, POSITIONS_PER_READ } from 'src/platform/events/conversation-event-feed';
import type { EventDoorbell } from 'src/platform/events/event-doorbell';
import { FakeEventDoorbell } from 'test/fakes/event-doorbell';

/** The log carries any context's events: these specs read events of one made-up type. */
const TYPES = ['note'];

/** A log that counts its reads (a read of several positions is one). */
function eventLog(events: StoredConversationEvent[]) {
  const after = (conversationId: number, afterId: bigint, limit: number) =>
    events.filter((event) => event.conversationId === conversationId && event.id > afterId).slice(0, limit);
  const log = {
    reads: 0,
    positionsRead: [] as number[],
    readAfter(conversationId: number, afterId: bigint, limit: number): Promise<StoredConversationEvent[]> {
      log.reads++;
      return Promise.resolve(after(conversationId, afterId, limit));
    },
    readAfterMany(positions: EventPosition[], limit: number): Promise<StoredConversationEvent[][]> {
      log.reads++;
      log.positionsRead.push(positions.length);
      return Promise.resolve(positions.map((p) => after(p.conversationId, p.afterId, limit)));
    },
  };
  return log;
}

const stored = (id: bigint, text: string): StoredConversationEvent =>
  ({
    id,
    conversationId: 4,
    event: { type: 'note', text },
  }) as unknown as StoredConversationEvent;

function feedOver(events: StoredConversationEvent[]) {
  const log = eventLog(events);
  const doorbell = { subscribe: () => () => undefined } as unknown as EventDoorbell;
  return { log, feed: new ConversationEventFeed(log as unknown as ConversationEventLog, doorbell) };
}

describe('ConversationEventFeed', () => {
  it('answers the streams that ask for one position in one turn with one read, serialised once', async () => {
    const { log, feed } = feedOver([stored(7n, 'hello'), stored(9n, 'again')]);
    const sources = Array.from({ length: 100 }, () => feed.source(4, { types: TYPES }));
    const batches = await Promise.all(sources.map((source) => source.read(5n, 200)));
    expect(log.reads).toBe(1);
    const hello = 'id: 7\ndata: {"type":"note","text":"hello"}\n\n';
    const again = 'id: 9\ndata: {"type":"note","text":"again"}\n\n';
    expect(batches[0]).toEqual([
      { id: 7n, frame: hello, chunk: `2c\r\n${hello}\r\n` },
      { id: 9n, frame: again, chunk: `2c\r\n${again}\r\n` },
    ]);
    for (const batch of batches) expect(batch[1].frame).toBe(batches[0][1].frame);
  });

  it('reads another position too, and the same position again in a later turn', async () => {
    const events = [stored(7n, 'hello')];
    const { log, feed } = feedOver(events);
    const source = feed.source(4, { types: TYPES });
    await Promise.all([source.read(5n, 200), source.read(7n, 200)]);
    expect(log.positionsRead).toEqual([2]);
    events.push(stored(8n, 'committed since'));
    await new Promise((resolve) => setImmediate(resolve));
    expect((await source.read(7n, 200)).map((event) => event.id)).toEqual([8n]);
    expect(log.positionsRead).toEqual([2, 1]);
  });
});

describe('ConversationEventFeed across conversations', () => {
  const inConversation = (conversationId: number, id: bigint): StoredConversationEvent =>
    ({
      id,
      conversationId,
      event: { type: 'note', text: `${conversationId}/${id}` },
    }) as unknown as StoredConversationEvent;

  it('reads the positions of a turn in statements of POSITIONS_PER_READ, each stream its own events', async () => {
    const conversations = POSITIONS_PER_READ * 2 + 5;
    const events = Array.from({ length: conversations }, (_, c) => [
      inConversation(c, BigInt(3 * c + 1)),
      inConversation(c, BigInt(3 * c + 2)),
    ]).flat();
    const { log, feed } = feedOver(events);
    const filter = { types: TYPES };
    const reads = await Promise.all(
      Array.from({ length: conversations }, (_, c) => feed.source(c, filter).read(BigInt(3 * c + 1), 200)),
    );
    expect(log.positionsRead).toEqual([POSITIONS_PER_READ, POSITIONS_PER_READ, 5]);
    reads.forEach((read, c) => expect(read.map((event) => event.id)).toEqual([BigInt(3 * c + 2)]));
  });

  it('sends a read asked for after the turn in a statement of its own, with what was committed since', async () => {
    const events = [inConversation(1, 5n)];
    const { log, feed } = feedOver(events);
    const source = feed.source(1, { types: TYPES });
    const first = source.read(0n, 200);
    await first;
    events.push(inConversation(1, 6n));
    expect((await source.read(0n, 200)).map((event) => event.id)).toEqual([5n, 6n]);
    expect((await first).map((event) => event.id)).toEqual([5n]);
    expect(log.reads).toBe(2);
  });

  it('fails every read of a statement that fails, and reads again on the next ask', async () => {
    const { log, feed } = feedOver([inConversation(1, 5n), inConversation(2, 6n)]);
    const failing = jest.spyOn(log, 'readAfterMany').mockRejectedValueOnce(new Error('connection lost'));
    const filter = { types: TYPES };
    const reads = [feed.source(1, filter).read(0n, 200), feed.source(2, filter).read(0n, 200)];
    await expect(reads[0]).rejects.toThrow('connection lost');
    await expect(reads[1]).rejects.toThrow('connection lost');
    failing.mockRestore();
    expect((await feed.source(2, filter).read(0n, 200)).map((event) => event.id)).toEqual([6n]);
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
        { types: TYPES },
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
