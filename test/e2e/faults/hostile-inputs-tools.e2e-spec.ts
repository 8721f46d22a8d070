import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { rm } from 'node:fs/promises';
import { expect } from 'test/support/expect';
import { FakeOpenAi } from 'test/support/fake-openai';
import { HostileMcpProcess, startHostileMcpProcess } from 'test/support/hostile-mcp-server';
import { paths } from 'test/support/paths';
import { ProcessWatchReport, watchProcess } from 'test/support/process-watch';
import { bootstrapWorkspace, useServedApiDocument } from 'test/support/service-api';
import { openSse } from 'test/support/sse-client';
import { ServiceProcess, startService, tempDataDir } from 'test/support/service-process';
import { until } from 'test/support/until';
import { ApiWorld, KeyHolder, ListedMessage, api } from 'test/support/world';

interface Action {
  functionCallName: string;
  status: string;
  output: { type: string; text: string }[] | null;
}

type AgentMessage = ListedMessage & { actions: Action[] };

const MIB = 1024 * 1024;
const TOOLS_LISTED = 600_000;
const HUGE_OUTPUT = 50 * MIB;
const LARGE_OUTPUT = 3 * MIB;
/** The service's defaults, which these tests rely on. */
const MESSAGE_MAX_BYTES = 4 * MIB;
const OUTPUT_MAX_BYTES = 65_536;
const MAX_MODEL_CALLS = 64;
/** A health check slower than this means the service's event loop was held. */
const STALL_MS = 2_000;

/**
 * What a service under hostile input must keep: itself up, its event loop never stalled (the probe
 * saw stalls of a minute), its memory bounded. The p99 of its health checks is printed, not
 * asserted: a latency target belongs to the bench, and CI runs two spec files at once.
 */
function expectHealthy(report: ProcessWatchReport): void {
  process.stdout.write(`${expect.getState().currentTestName}: ${JSON.stringify(report)}\n`);
  expect(report.healthFailures).toBe(0);
  expect(report.healthChecks).toBeGreaterThan(0);
  expect(report.healthMaxMs).toBeLessThan(STALL_MS);
  expect(report.peakRssGrowthBytes).toBeLessThan(256 * MIB);
}

describe('hostile tool servers and agents, against the service as a process', () => {
  let service: ServiceProcess;
  let dataDir: string;
  let hostile: HostileMcpProcess;
  const openai = new FakeOpenAi();
  let world: ApiWorld;
  let admin: KeyHolder;
  let wId: string;

  /** Runs `scenario` while the service is watched; the report says how the service held up. */
  async function watched<T>(scenario: () => Promise<T>): Promise<{ result: T; report: ProcessWatchReport }> {
    // A check every 5 ms: enough of them that the 99th percentile is not simply the worst one.
    const watch = await watchProcess(service.baseUrl, service.pid, 5);
    try {
      return { result: await scenario(), report: await watch.stop() };
    } finally {
      await watch.stop();
    }
  }

  async function register(name: string, url: string): Promise<{ sId: string; lastSyncError: string | null }> {
    const res = await api(service.baseUrl, admin).post(paths.toolServers(wId)).send({ name, url });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    expect(res.body).toMatchApiSchema('RemoteMcpServerResponse');
    return res.body.mcpServer as { sId: string; lastSyncError: string | null };
  }

  /** Posts `content` mentioning `agent`; answers the conversation and its agent message once ended. */
  async function ask(agent: string, content: string): Promise<{ cId: string; message: AgentMessage }> {
    const { sId } = await world.conversation(admin, { message: content, mentions: [agent] });
    const list = await until(
      () => world.messages(admin, sId),
      (messages) => messages.some((m) => m.type === 'agent_message' && m.status !== 'created'),
      60_000,
    );
    return { cId: sId, message: list.find((m) => m.type === 'agent_message') as AgentMessage };
  }

  beforeAll(async () => {
    hostile = await startHostileMcpProcess({
      listedTools: TOOLS_LISTED,
      pageSize: 100,
      hugeChars: HUGE_OUTPUT,
      largeChars: LARGE_OUTPUT,
    });
    const openaiUrl = await openai.start();
    dataDir = await tempDataDir();
    const env = {
      DATA_DIR: dataDir,
      // The tool servers of these tests live on this machine.
      MCP_ALLOW_PRIVATE_NETWORKS: 'true',
      OPENAI_BASE_URL: openaiUrl,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MAX_RETRIES: '0',
      LOCAL_MODEL_CHUNK_DELAY_MS: '0',
      // The model calls are the budget a run_agent tree spends first.
      RUN_MAX_TOOL_CALLS: '100000',
    };
    service = await startService(env);
    const boot = await bootstrapWorkspace(env, 'Hostile');
    admin = { secret: boot.apiKey.secret, workspace: boot.workspace };
    wId = boot.workspace.sId;
    await useServedApiDocument(service.baseUrl);
    world = new ApiWorld(service.baseUrl);
    const globalSpace = await world.globalSpace(admin);
    const outputs = await register('outputs', hostile.outputsUrl);
    expect(outputs.lastSyncError).toBeNull();
    await api(service.baseUrl, admin)
      .post(paths.toolServerViews(wId, globalSpace))
      .send({ mcpServerId: outputs.sId })
      .expect(200);
  });

  afterAll(async () => {
    await service?.stop();
    await Promise.allSettled([hostile?.stop(), openai.stop()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a server listing 600,000 tools after the pages that pass the cap, staying up', async () => {
    const { result: server, report } = await watched(() => register('Many tools', hostile.listingUrl));
    expect(server).toMatchObject({
      tools: [],
      lastSyncError: 'The server lists more than 512 tools; the listing was not read further.',
    });
    // 100 tools a page: the sixth passes 512, and no page after it is asked for.
    expect(await hostile.listPagesAsked()).toBe(6);
    expect((await fetch(`${service.baseUrl}/healthz`)).status).toBe(200);
    expectHealthy(report);
  });

  it('fails a 50 MB tool answer at the message limit, and cuts a 3 MiB one with a note', async () => {
    const agent = await world.agent(admin, {
      instructions: 'Use your tools.',
      model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
      actions: [{ name: 'outputs', mcpServerName: 'outputs' }],
    });
    const {
      result: { message },
      report,
    } = await watched(() => ask(agent.sId, '/tool outputs__huge {}\n/tool outputs__large {}'));
    expect(message.status).toBe('succeeded');
    const [huge, large] = message.actions;
    expect(huge).toMatchObject({
      functionCallName: 'outputs__huge',
      status: 'failed',
      output: [
        {
          type: 'text',
          text:
            `The tool call failed: The server's answer is larger than ${MESSAGE_MAX_BYTES} bytes ` +
            '(MCP_MESSAGE_MAX_BYTES); it was not read further.',
        },
      ],
    });
    expect(large).toMatchObject({ functionCallName: 'outputs__large', status: 'succeeded' });
    const shown = large.output![0].text;
    expect(shown).toBe(
      `${'l'.repeat(OUTPUT_MAX_BYTES)}\n[Output truncated: the tool returned ${LARGE_OUTPUT} bytes; ` +
        `only the first ${OUTPUT_MAX_BYTES} are shown.]`,
    );
    expectHealthy(report);
  });

  it('runs an agent through many steps and tool calls without piling abort listeners up', async () => {
    const agent = await world.agent(admin, {
      instructions: 'Echo step by step.',
      model: { providerId: 'openai', modelId: 'gpt-test', temperature: 0 },
      maxStepsPerRun: 16,
      actions: [{ name: 'outputs', mcpServerName: 'outputs' }],
    });
    const steps = 15;
    for (let step = 0; step < steps; step++) {
      openai.script({
        kind: 'tool_calls',
        calls: [{ id: `call_${step}`, name: 'outputs__echo', arguments: `{"text":"step ${step}"}` }],
      });
    }
    openai.script({ kind: 'stream', chunks: ['All ', 'done.'] });
    const {
      result: { message },
      report,
    } = await watched(() => ask(agent.sId, 'Go through the steps.'));
    expect(message).toMatchObject({ status: 'succeeded', content: 'All done.' });
    expect(message.actions).toHaveLength(steps);
    expect(message.actions.every((action) => action.status === 'succeeded')).toBe(true);
    expect(service.output()).not.toContain('MaxListenersExceededWarning');
    expectHealthy(report);
  });

  it('stops a run_agent tree that fans out eight calls a step at its budget of model calls', async () => {
    const agent = await world.agent(admin, {
      instructions: 'Ask yourself, eight times over.',
      model: { providerId: 'openai', modelId: 'gpt-test', temperature: 0 },
      maxStepsPerRun: 3,
      actions: [{ name: 'run_agent', mcpServerName: 'run_agent' }],
    });
    const fanOut = Array.from({ length: 8 }, (_, index) => ({
      id: `call_${index}`,
      name: 'run_agent__run_agent',
      arguments: JSON.stringify({ agentId: agent.sId, query: 'Ask yourself again.' }),
    }));
    // Without a budget this tree makes 819 model requests: more than enough replies.
    for (let i = 0; i < 900; i++) openai.script({ kind: 'tool_calls', calls: fanOut });
    const before = openai.requests.length;
    try {
      const {
        result: { cId, message },
        report,
      } = await watched(() => ask(agent.sId, 'Fan out.'));
      expect(message).toMatchObject({
        status: 'failed',
        error: {
          code: 'run_budget_exceeded',
          message:
            `The answer used its budget of ${MAX_MODEL_CALLS} model calls (RUN_MAX_MODEL_CALLS), ` +
            'the agents asked through run_agent included, and was stopped.',
        },
      });
      const made = openai.requests.length - before;
      process.stdout.write(`The run_agent tree made ${made} model requests.\n`);
      expect(made).toBeLessThanOrEqual(MAX_MODEL_CALLS);
      // The tree went two levels deep before it was stopped.
      expect(made).toBeGreaterThan(1 + fanOut.length);
      // No request comes late: nothing in the other process signals that none is on its way, so
      // half a second of real time passes without one.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(openai.requests.length - before).toBe(made);
      const stream = await openSse(`${service.baseUrl}${paths.stream(wId, cId)}?lastEventId=0`, {
        Authorization: `Bearer ${admin.secret}`,
      });
      try {
        const done = await until(
          async () => stream.events.find((event) => event.data.type === 'agent_message_done'),
          (found) => found !== undefined,
        );
        expect(done!.data).toMatchObject({ status: 'error', messageId: message.sId });
      } finally {
        stream.close();
      }
      expect(service.output()).not.toContain('MaxListenersExceededWarning');
      expectHealthy(report);
    } finally {
      openai.unscript();
    }
  });
});
