import { afterAll, beforeAll, describe, it } from '@jest/globals';
import fc from 'fast-check';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { ConversationEventLog, EventFilter } from 'src/platform/events/conversation-event';
import {
  CONVERSATION_STREAM_TYPES,
  ConversationEvent,
  ConversationEventType,
  MESSAGE_STREAM_TYPES,
} from 'src/modules/conversations/application/views/conversation-event.view';
import type { ActionView } from 'src/modules/conversations/application/views/action.view';
import { ConversationEventFeed } from 'src/platform/events/conversation-event-feed';
import { SseSource, SseStream } from 'src/platform/http/sse-stream';
import { SseConfig } from 'src/platform/http/sse.config';
import { expect } from 'test/support/expect';
import { TestApp, createTestApp } from 'test/support/test-app';

/** What a stream writes, without a socket: each frame as written. */
class CapturedResponse extends EventEmitter {
  statusCode = 0;
  readonly chunkedEncoding = false;
  readonly socket = null;
  writableEnded = false;
  readonly writableNeedDrain = false;
  readonly frames: string[] = [];

  setHeader(): void {}
  flushHeaders(): void {}
  write(frame: string): boolean {
    this.frames.push(frame);
    return true;
  }
  end(): void {
    this.writableEnded = true;
  }
  destroy(): void {
    this.writableEnded = true;
  }
}

interface Logged {
  id: bigint;
  title: string;
}

const CONVERSATIONS = 3;
const byId = (x: Logged, y: Logged) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);

/**
 * Random interleavings of appends to several conversations, with the id sequence started just
 * below a random power of ten (up to 10^18, past JavaScript's exact integers), then replays from
 * random positions with random batch sizes, through the log and through a stream: each replay is
 * exactly the suffix of its conversation's log after the position, in numeric order.
 */
describe('event log replay (property)', () => {
  let t: TestApp;
  let log: ConversationEventLog<ConversationEvent>;
  let feed: ConversationEventFeed<ConversationEvent>;

  beforeAll(async () => {
    t = await createTestApp();
    log = t.app.get(ConversationEventLog);
    feed = t.app.get(ConversationEventFeed);
  });
  afterAll(() => t.close());

  /** Appends the rounds (each round's appends at once); returns each conversation's log, sorted. */
  async function appendRounds(rounds: number[][]): Promise<Logged[][]> {
    const logs: Logged[][] = Array.from({ length: CONVERSATIONS }, () => []);
    let n = 0;
    for (const round of rounds) {
      await Promise.all(
        round.map(async (conversation) => {
          const title = `c${conversation} #${n++}`;
          const id = await log.append(1, conversation + 1, {
            type: 'conversation_title',
            created: Date.now(),
            title,
          });
          logs[conversation].push({ id, title });
        }),
      );
    }
    return logs.map((entries) => entries.sort(byId));
  }

  async function replayFromLog(conversation: number, afterId: bigint, batch: number): Promise<Logged[]> {
    const replayed: Logged[] = [];
    for (let after = afterId; ;) {
      const events = await log.readAfter(conversation + 1, after, batch);
      for (const { id, event } of events) replayed.push({ id, title: (event as { title: string }).title });
      if (events.length < batch) return replayed;
      after = events[events.length - 1].id;
    }
  }

  async function replayFromStream(
    conversation: number,
    afterId: bigint,
    batch: number,
    filter: EventFilter<ConversationEventType> = { types: CONVERSATION_STREAM_TYPES },
  ): Promise<Logged[]> {
    const source = feed.source(conversation + 1, filter);
    let pending = 0;
    // Caught up once a read brought less than a batch and nothing else is under way.
    let caughtUp!: () => void;
    let lagging!: (error: Error) => void;
    const done = new Promise<void>((resolve, reject) => ((caughtUp = resolve), (lagging = reject)));
    const watched: SseSource = {
      subscribe: (ring) => source.subscribe(ring),
      read: (after, limit) => {
        pending++;
        return source.read(after, limit).then((events) => {
          pending--;
          if (pending === 0 && events.length < batch) caughtUp();
          return events;
        });
      },
    };
    const res = new CapturedResponse();
    const stream = new SseStream(
      res as unknown as ServerResponse,
      watched,
      afterId,
      t.app.get(SseConfig),
      batch,
    );
    const bound = setTimeout(() => lagging(new Error('the stream did not catch up in time')), 5_000);
    await done.finally(() => clearTimeout(bound));
    await new Promise((resolve) => setImmediate(resolve));
    stream.close();
    return res.frames.map((frame) => {
      const [, id, data] = /^id: (\d+)\ndata: (.*)\n\n$/.exec(frame)!;
      const event = JSON.parse(data) as { title?: string; text?: string; type: string };
      return { id: BigInt(id), title: event.title ?? `${event.type}:${event.text}` };
    });
  }

  it('replays every event after any position, once and in numeric order, at any batch size', async () => {
    const scenario = fc.record({
      magnitude: fc.integer({ min: 1, max: 18 }),
      below: fc.integer({ min: 1, max: 25 }),
      rounds: fc.array(
        fc.array(fc.integer({ min: 0, max: CONVERSATIONS - 1 }), { minLength: 1, maxLength: 4 }),
        {
          minLength: 1,
          maxLength: 10,
        },
      ),
      replays: fc.array(
        fc.record({
          conversation: fc.integer({ min: 0, max: CONVERSATIONS - 1 }),
          position: fc.nat(),
          batch: fc.integer({ min: 1, max: 7 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ magnitude, below, rounds, replays }) => {
        const start = 10n ** BigInt(magnitude) - BigInt(below);
        await t.dataSource.query('TRUNCATE conversation_events');
        await t.dataSource.query(
          `SELECT setval(pg_get_serial_sequence('conversation_events', 'id'), $1::bigint)`,
          [String(start > 0n ? start : 1n)],
        );
        const logs = await appendRounds(rounds);
        const everyId = [0n, ...logs.flat().map((entry) => entry.id)];
        for (const { conversation, position, batch } of replays) {
          const afterId = everyId[position % everyId.length];
          const expected = logs[conversation].filter((entry) => entry.id > afterId);
          expect(await replayFromLog(conversation, afterId, batch)).toEqual(expected);
          expect(await replayFromStream(conversation, afterId, batch)).toEqual(expected);
        }
        // Several positions in one read (repeated, of one conversation or of several) are each
        // what a read of its own gives.
        const positions = replays.map(({ conversation, position }) => ({
          conversationId: conversation + 1,
          afterId: everyId[position % everyId.length],
        }));
        const limit = replays[0].batch;
        expect(await log.readAfterMany(positions, limit)).toEqual(
          await Promise.all(positions.map((p) => log.readAfter(p.conversationId, p.afterId, limit))),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("replays one agent message's events, and only the conversation stream's types, across batches", async () => {
    /** What an append writes: a title, tokens of one of two messages, or a tool call of one. */
    const kinds = fc.constantFrom('title', 'tokens:m0', 'tokens:m1', 'tool:m0', 'tool:m1');
    const scenario = fc.record({
      magnitude: fc.integer({ min: 1, max: 18 }),
      appends: fc.array(kinds, { minLength: 1, maxLength: 30 }),
      position: fc.nat(),
      batch: fc.integer({ min: 1, max: 5 }),
      message: fc.constantFrom('m0', 'm1'),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ magnitude, appends, position, batch, message }) => {
        await t.dataSource.query('TRUNCATE conversation_events');
        await t.dataSource.query(
          `SELECT setval(pg_get_serial_sequence('conversation_events', 'id'), $1::bigint)`,
          [String(10n ** BigInt(magnitude) - 3n)],
        );
        const logged: (Logged & { type: string; messageId?: string })[] = [];
        for (const [n, kind] of appends.entries()) {
          const [what, messageId] = kind.split(':');
          const common = { created: Date.now(), configurationId: 'agent', messageId };
          const event: ConversationEvent =
            what === 'title'
              ? { type: 'conversation_title', created: Date.now(), title: `t${n}` }
              : what === 'tokens'
                ? { type: 'generation_tokens', ...common, messageId, text: `${n}`, classification: 'tokens' }
                : // Only the type and the message matter to the log: a stand-in for the action.
                  { type: 'tool_params', ...common, messageId, action: { n } as unknown as ActionView };
          const id = await log.append(1, 1, event);
          const title = event.type === 'conversation_title' ? event.title : `${event.type}:${n}`;
          logged.push({
            id,
            title: what === 'tool' ? 'tool_params:undefined' : title,
            type: event.type,
            messageId,
          });
        }
        const everyId = [0n, ...logged.map((entry) => entry.id)];
        const afterId = everyId[position % everyId.length];
        const strip = (entries: typeof logged): Logged[] => entries.map(({ id, title }) => ({ id, title }));
        const ofMessage = logged.filter(
          (entry) =>
            entry.id > afterId &&
            entry.messageId === message &&
            MESSAGE_STREAM_TYPES.includes(entry.type as never),
        );
        expect(
          await replayFromStream(0, afterId, batch, { types: MESSAGE_STREAM_TYPES, messageId: message }),
        ).toEqual(strip(ofMessage));
        const ofConversation = logged.filter(
          (entry) => entry.id > afterId && CONVERSATION_STREAM_TYPES.includes(entry.type as never),
        );
        expect(await replayFromStream(0, afterId, batch)).toEqual(strip(ofConversation));
        const filter = { types: MESSAGE_STREAM_TYPES, messageId: message };
        const positions = [
          { conversationId: 1, afterId },
          { conversationId: 2, afterId: 0n },
          { conversationId: 1, afterId: 0n },
        ];
        expect(await log.readAfterMany(positions, batch, filter)).toEqual(
          await Promise.all(positions.map((p) => log.readAfter(p.conversationId, p.afterId, batch, filter))),
        );
      }),
      { numRuns: 150 },
    );
  });
});
