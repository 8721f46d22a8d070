import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pool } from 'pg';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { expect } from 'test/support/expect';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { World, WorkspaceFixture, api } from 'test/support/world';

const context = { username: 'ada', timezone: 'UTC' };
const AGENT_TABLES = ['agent_configurations', 'agent_editors', 'agent_favorites', 'tags'];

/**
 * The queries of the POST itself, as measured (with the key already cached): 12 and 27 when the
 * mentioned agent was read three times in the request and once more to start its run.
 */
const REQUEST_QUERIES_MAX = { noMention: 9, oneMention: 14 };

type Phase = 'request' | 'after-commit';
type Recorded = { phase: Phase; text: string }[];

/**
 * Records the SQL of one post by where it runs: the request itself, or what runs once it has
 * committed (the listeners of the events it emits then, the start of agent runs). Queries of background timers carry
 * neither and are left out, so the counts do not depend on when those fire.
 */
class QueryRecorder {
  private readonly phase = new AsyncLocalStorage<{ phase: Phase; into: Recorded }>();
  private readonly restore: (() => void)[] = [];

  async install(t: TestApp): Promise<void> {
    const pool = (t.dataSource.driver as PostgresDriver).master as Pool;
    const client = await pool.connect();
    const proto = Object.getPrototypeOf(client) as { query: (...args: unknown[]) => unknown };
    client.release();
    const query = proto.query;
    const phase = this.phase;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const store = phase.getStore();
      const config = args[0] as string | { text: string };
      if (store)
        store.into.push({ phase: store.phase, text: typeof config === 'string' ? config : config.text });
      return query.apply(this, args);
    };
    this.restore.push(() => (proto.query = query));

    const server = t.http;
    const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
    server.removeAllListeners('request');
    const current = () => this.recording;
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const into = current();
      const handle = () => listeners.forEach((listener) => listener.call(server, req, res));
      if (into) phase.run({ phase: 'request', into }, handle);
      else handle();
    });
    this.restore.push(() => {
      server.removeAllListeners('request');
      listeners.forEach((listener) => server.on('request', listener));
    });

    const emitter = t.app.get(EventEmitter2);
    const emit = emitter.emit.bind(emitter);
    emitter.emit = (event: string | symbol | (string | symbol)[], ...values: unknown[]) => {
      const store = phase.getStore();
      if (!store) return emit(event, ...values);
      return phase.run({ phase: 'after-commit', into: store.into }, () => emit(event, ...values));
    };
    this.restore.push(() => (emitter.emit = emit));

    const unitOfWork = t.app.get(UnitOfWork);
    const afterCommit = unitOfWork.afterCommit.bind(unitOfWork);
    unitOfWork.afterCommit = (callback: () => void) => {
      const store = phase.getStore();
      afterCommit(store ? () => phase.run({ phase: 'after-commit', into: store.into }, callback) : callback);
    };
    this.restore.push(() => (unitOfWork.afterCommit = afterCommit));
  }

  private recording: Recorded | null = null;

  async record(work: () => Promise<unknown>): Promise<Recorded> {
    const into: Recorded = [];
    this.recording = into;
    try {
      await work();
    } finally {
      this.recording = null;
    }
    return into;
  }

  uninstall(): void {
    for (const undo of this.restore.reverse()) undo();
  }
}

/** The first line of each query when there are more than `max`, so a failure shows what ran. */
const withinBound = (queries: Recorded, max: number) =>
  queries.length <= max ? 'within bound' : queries.map((query) => query.text.split('\n')[0]);

/** How many of the queries read `table` (in a FROM or a JOIN). */
const reads = (queries: Recorded, table: string) =>
  queries.filter((query) => new RegExp(`\\b(FROM|JOIN)\\s+"?${table}"?(\\s|$)`, 'i').test(query.text)).length;

describe('queries of a message post', () => {
  let t: TestApp;
  let a: WorkspaceFixture;
  let wId: string;
  let agentSId: string;
  const recorder = new QueryRecorder();

  const conversationsPath = () => `/api/w/${wId}/assistant/conversations`;
  const messages = async (cId: string) =>
    (await api(t, a.admin).get(`${conversationsPath()}/${cId}/messages`).expect(200)).body.messages as {
      type: string;
      status?: string;
    }[];

  /** Posts to a fresh conversation and waits for its agent messages to finish. */
  const post = async (mentions: { configurationId: string }[]) => {
    const created = await api(t, a.admin).post(conversationsPath()).send({ title: 'Counted' }).expect(200);
    const cId = created.body.conversation.sId as string;
    // Only the post is recorded; the after-commit work it started goes on recording into the same list.
    const queries = await recorder.record(() =>
      api(t, a.admin)
        .post(`${conversationsPath()}/${cId}/messages`)
        .send({ content: 'How many queries?', mentions, context })
        .expect(200),
    );
    await until(
      () => messages(cId),
      (list) =>
        list.filter((m) => m.type === 'agent_message' && m.status !== 'created').length === mentions.length,
    );
    return {
      request: queries.filter((query) => query.phase === 'request'),
      afterCommit: queries.filter((query) => query.phase === 'after-commit'),
    };
  };

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RUN_HEARTBEAT_MS: 60_000,
        RUN_STALE_AFTER_MS: 600_000,
        LOCAL_MODEL_CHUNK_DELAY_MS: 0,
        RUN_CONCURRENCY: 8,
      },
    });
    const world = new World(t);
    a = await world.workspace();
    wId = a.workspace.sId;
    const agent = await api(t, a.admin)
      .post(`/api/w/${wId}/assistant/agent_configurations`)
      .send({
        assistant: {
          name: 'counter',
          description: 'Counts.',
          instructions: 'Count.',
          scope: 'visible',
          model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
        },
      })
      .expect(200);
    agentSId = agent.body.agentConfiguration.sId as string;
    await recorder.install(t);
    // The key is cached after its first use, as in a running service.
    await post([]);
    await post([{ configurationId: agentSId }]);
  });
  afterAll(async () => {
    recorder.uninstall();
    await t.close();
  });

  it('posts a message without mention in a bounded number of queries, reading no agent', async () => {
    const { request, afterCommit } = await post([]);
    expect(request.length).toBeGreaterThan(0);
    expect(withinBound(request, REQUEST_QUERIES_MAX.noMention)).toBe('within bound');
    for (const table of AGENT_TABLES) expect(reads([...request, ...afterCommit], table)).toBe(0);
  });

  it('reads the mentioned agent once, for the checks, the message and the start of its run', async () => {
    const { request, afterCommit } = await post([{ configurationId: agentSId }]);
    expect(withinBound(request, REQUEST_QUERIES_MAX.oneMention)).toBe('within bound');
    const all = [...request, ...afterCommit];
    expect(reads(all, 'agent_configurations')).toBe(1);
    for (const table of AGENT_TABLES) expect(reads(all, table)).toBeLessThanOrEqual(1);
    for (const table of AGENT_TABLES) expect(reads(afterCommit, table)).toBe(0);
  });
});
