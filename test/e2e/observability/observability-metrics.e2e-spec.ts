import { afterAll, beforeAll, describe, it } from '@jest/globals';
import request from 'supertest';
import { freePort } from 'src/platform/net/free-port';
import { expect, expectError } from 'test/support/expect';
import { FakeOpenAi } from 'test/support/fake-openai';
import { McpTestServer, startMcpTestServer } from 'test/support/mcp-test-server';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { World, WorkspaceFixture, api } from 'test/support/world';

const METRICS_TOKEN = 'metrics-token-of-the-test-0123456789';

/** `name{labels} value` lines of a Prometheus text answer, by `name{labels}`. */
function samples(text: string): Map<string, number> {
  return new Map(
    text
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => {
        const at = line.lastIndexOf(' ');
        return [line.slice(0, at), Number(line.slice(at + 1))] as const;
      }),
  );
}

describe('metrics', () => {
  let t: TestApp;
  let mcp: McpTestServer;
  let world: World;
  let a: WorkspaceFixture;
  const openai = new FakeOpenAi();

  const scrape = () => request(t.http).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);

  beforeAll(async () => {
    mcp = await startMcpTestServer();
    t = await createTestApp({
      env: {
        METRICS_TOKEN,
        LOCAL_MODEL_CHUNK_DELAY_MS: 0,
        RUN_HEARTBEAT_MS: 200,
        OPENAI_BASE_URL: await openai.start(),
        OPENAI_API_KEY: 'sk-test',
        OPENAI_MAX_RETRIES: 0,
      },
    });
    world = new World(t);
    a = await world.workspace();
  });
  afterAll(async () => {
    await t.close();
    await mcp.stop();
    await openai.stop();
  });

  it('counts the requests, the run, its model and tool calls and its events once a run with a tool call ends', async () => {
    const before = samples((await scrape().expect(200)).text);
    const globalSpace = await world.globalSpace(a.admin);
    const server = await api(t, a.admin)
      .post(paths.toolServers(a.workspace.sId))
      .send({ name: 'crm', url: mcp.url, description: 'Test tools' })
      .expect(200);
    await api(t, a.admin)
      .post(paths.toolServerViews(a.workspace.sId, globalSpace))
      .send({ mcpServerId: server.body.mcpServer.sId })
      .expect(200);
    const agent = await world.agent(a.admin, {
      instructions: 'Use your tools.',
      model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
      actions: [{ name: 'crm', mcpServerName: 'crm' }],
    });
    const built = await world.conversation(a.admin, {
      message: '/tool crm__add {"a": 2, "b": 40}',
      mentions: [agent.sId],
    });
    const settled = await world.settled(a.admin, built.sId);
    expect(settled.find((m) => m.type === 'agent_message')).toMatchObject({
      status: 'succeeded',
      content: 'crm__add answered: 42',
    });

    const res = await scrape().expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const after = samples(res.text);
    const moved = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    expect(moved('agent_runs_finished_total{outcome="succeeded"}')).toBe(1);
    expect(moved('agent_tool_calls_total{server="remote",outcome="succeeded"}')).toBe(1);
    expect(moved('agent_tool_call_duration_seconds_count{server="remote"}')).toBe(1);
    // The call that asks for the tool, and the one that answers with its output.
    expect(moved('agent_model_call_duration_seconds_count{provider="local",outcome="succeeded"}')).toBe(2);
    expect(
      moved('http_requests_total{method="POST",route="/api/w/:wId/assistant/conversations",status="200"}'),
    ).toBe(1);
    expect(moved('http_requests_total{method="GET",route="/metrics",status="200"}')).toBe(1);
    expect(moved('conversation_event_appends_total{type="agent_message_done"}')).toBe(1);
    expect(after.get('agent_runs_running')).toBe(0);
    expect(after.get('agent_runs_queued')).toBe(0);
    expect(after.get('sse_open_streams')).toBe(0);
    expect(after.get('db_pool_connections{state="total"}')).toBeGreaterThan(0);
    // Labels are bounded: no workspace, conversation or server id in any of them.
    for (const id of [a.workspace.sId, built.sId, server.body.mcpServer.sId as string]) {
      expect(res.text).not.toContain(id);
    }
  });

  it('counts the tokens a provider reports for each call, by provider and kind', async () => {
    const agent = await world.agent(a.admin, {
      instructions: 'Answer briefly.',
      model: { providerId: 'openai', modelId: 'gpt-test', temperature: 0 },
    });
    const before = samples((await scrape().expect(200)).text);
    openai.script({
      kind: 'stream',
      chunks: ['Noted.'],
      usage: { prompt: 310, completion: 42, reasoning: 12 },
    });
    const built = await world.conversation(a.admin, { message: 'Note this.', mentions: [agent.sId] });
    const settled = await world.settled(a.admin, built.sId);
    expect(settled.find((m) => m.type === 'agent_message')).toMatchObject({ status: 'succeeded' });

    const after = samples((await scrape().expect(200)).text);
    const moved = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    expect(moved('agent_model_tokens_total{provider="openai",kind="prompt"}')).toBe(310);
    expect(moved('agent_model_tokens_total{provider="openai",kind="completion"}')).toBe(42);
    expect(moved('agent_model_tokens_total{provider="openai",kind="reasoning"}')).toBe(12);
    expect(moved('agent_runs_finished_total{outcome="succeeded"}')).toBe(1);
  });

  it('is refused without the token, or with another one, in the error envelope', async () => {
    expectError(await request(t.http).get('/metrics'), 401, 'missing_authorization_header_error');
    expectError(
      await request(t.http).get('/metrics').set('Authorization', 'Bearer not-the-metrics-token'),
      401,
      'invalid_api_key_error',
    );
    // An API key of the service is no metrics token.
    expectError(
      await request(t.http).get('/metrics').set('Authorization', `Bearer ${a.admin.secret}`),
      401,
      'invalid_api_key_error',
    );
  });

  it('is closed when no METRICS_TOKEN is set', async () => {
    const closed = await createTestApp({ databaseUrl: t.config.databaseUrl! });
    try {
      expectError(await request(closed.http).get('/metrics'), 401, 'invalid_api_key_error');
    } finally {
      await closed.close();
    }
  });

  it('is served on METRICS_PORT alone when it is set', async () => {
    const port = await freePort();
    const apart = await createTestApp({ databaseUrl: t.config.databaseUrl!, env: { METRICS_PORT: port } });
    try {
      expectError(
        await request(apart.http).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`),
        404,
        'not_found',
      );
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# TYPE http_requests_total counter');
      const elsewhere = await fetch(`http://127.0.0.1:${port}/api/w/${a.workspace.sId}/me`);
      expect(elsewhere.status).toBe(404);
    } finally {
      await apart.close();
    }
    // Closed with its application.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  // A socket bound to 127.0.0.1 refuses what is sent to another address of the machine, 127.0.0.2 too.
  it('listens on loopback alone unless METRICS_HOST opens it, behind the token', async () => {
    const port = await freePort();
    const closed = await createTestApp({ databaseUrl: t.config.databaseUrl!, env: { METRICS_PORT: port } });
    try {
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
      await expect(fetch(`http://127.0.0.2:${port}/metrics`)).rejects.toThrow();
    } finally {
      await closed.close();
    }
    const open = await createTestApp({
      databaseUrl: t.config.databaseUrl!,
      env: { METRICS_PORT: port, METRICS_HOST: '0.0.0.0', METRICS_TOKEN },
    });
    try {
      expect((await fetch(`http://127.0.0.2:${port}/metrics`)).status).toBe(401);
      const scraped = await fetch(`http://127.0.0.2:${port}/metrics`, {
        headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(scraped.status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
