import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'test/support/expect';
import { WalkthroughShell, walkthroughBlocks } from 'test/support/shell-walkthrough';
import { TestApp, createTestApp } from 'test/support/test-app';
import { TEST_ENV } from 'test/support/test-database';
import { until } from 'test/support/until';
import { api } from 'test/support/world';

const runFile = promisify(execFile);

/** The first keys of the JSON objects a block prints, line by line: what the walk-through shows of them. */
const firstKeys = (text: string) => [...text.matchAll(/^\{"(\w+)"/gm)].map((match) => match[1]);
/** The event types of the `data:` lines of a stream. */
const eventTypes = (text: string) =>
  new Set([...text.matchAll(/^data: \{.*?"type":"(\w+)"/gm)].map((match) => match[1]));

/**
 * The walk-through, read from docs/walkthrough.md and run as pasted (through an interpreter of the
 * shell it uses, so curl need not be installed) against a test service with the defaults of
 * `npm start`; the CLI is the built one, on the test database.
 */
describe('the walk-through of docs/walkthrough.md', () => {
  let t: TestApp;
  let workDir: string;
  let shell: WalkthroughShell;
  const printed: string[] = [];
  const blocks: ReturnType<typeof walkthroughBlocks> = [];

  beforeAll(async () => {
    const build = process.env[TEST_ENV.serviceBuild];
    if (!build)
      throw new Error(`${TEST_ENV.serviceBuild} is not set: run e2e tests through their Jest config.`);
    blocks.push(...walkthroughBlocks(await readFile(join(dirname(build), 'docs', 'walkthrough.md'), 'utf8')));
    // As `npm start` runs: loopback tool servers refused.
    t = await createTestApp({ env: { MCP_ALLOW_PRIVATE_NETWORKS: false } });
    const databaseUrl = t.config.databaseUrl;
    if (!databaseUrl) throw new Error('The test app has no database URL for the CLI.');
    workDir = await mkdtemp(join(tmpdir(), 'wa-walkthrough-'));
    shell = new WalkthroughShell({
      baseUrl: await t.listen(),
      workDir,
      cli: async (args) => {
        const { stdout } = await runFile(process.execPath, [join(build, 'src', 'cli.js'), ...args], {
          env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
        });
        return stdout;
      },
    });
    for (const block of blocks) printed.push(await shell.run(block.commands));
  });
  afterAll(async () => {
    await t.close();
    await rm(workDir, { recursive: true, force: true });
  });

  it('runs every step, each answered as the walk-through says', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(9);
    const answers = shell.calls.map(
      (call) => `${call.method} ${call.url.replace(/^https?:\/\/[^/]+/, '')} → ${call.status}`,
    );
    const refused = shell.calls.filter((call) => call.status < 200 || call.status >= 300);
    // The one refusal the walk-through announces: a loopback MCP server.
    expect(refused.map((call) => [call.url.replace(/^.*\/api\//, '/api/'), call.status])).toEqual([
      [expect.stringMatching(/^\/api\/w\/\w+\/mcp_servers$/), 400],
    ]);
    expect(JSON.parse(refused[0].body)).toEqual({
      error: { type: 'invalid_request_error', message: expect.stringContaining('127.0.0.1 is not allowed') },
    });
    expect(answers.length).toBeGreaterThanOrEqual(12);
    for (const [i, block] of blocks.entries()) {
      if (block.shown === null) continue;
      expect({ block: i + 1, keys: firstKeys(printed[i]) }).toEqual({
        block: i + 1,
        keys: firstKeys(block.shown),
      });
      for (const type of eventTypes(block.shown)) {
        expect({ block: i + 1, type, streamed: eventTypes(printed[i]).has(type) }).toMatchObject({
          streamed: true,
        });
      }
    }
  });

  it('leaves what it says: an answered conversation, its fork, feedback, a fragment and a wake-up', async () => {
    const v = (name: string) => {
      const value = shell.variables.get(name);
      expect({ name, value }).toEqual({ name, value: expect.stringMatching(/\S/) });
      return value!;
    };
    const [W, C, AGENT, ANSWER, F] = ['W', 'C', 'AGENT', 'ANSWER', 'F'].map(v);
    const admin = { secret: v('KEY') };
    const base = `/api/w/${W}/assistant/conversations`;

    type Listed = {
      type: string;
      sId: string;
      version: number;
      status?: string;
      fileId?: string;
      configuration?: { sId: string };
    };
    const list = async () =>
      (await api(t, admin).get(`${base}/${C}/messages`).expect(200)).body.messages as Listed[];
    // The edit answered again: the list shows the answer's new version once it is done.
    const messages = await until(list, (listed) =>
      listed.some((m) => m.type === 'agent_message' && m.status === 'succeeded'),
    );
    const answer = messages.find((m) => m.type === 'agent_message');
    expect(answer).toMatchObject({
      type: 'agent_message',
      status: 'succeeded',
      version: 1,
      configuration: { sId: AGENT },
    });
    expect(answer?.sId).not.toBe(ANSWER);
    expect(messages.filter((m) => m.type === 'content_fragment')).toEqual([
      expect.objectContaining({ fileId: F }),
    ]);

    const conversations = (await api(t, admin).get(base).expect(200)).body.conversations as {
      sId: string;
      forkingData: { forkedFrom: { parentConversationId: string } | null };
    }[];
    expect(conversations.filter((c) => c.forkingData.forkedFrom?.parentConversationId === C)).toHaveLength(1);

    const feedbacks = await api(t, admin)
      .get(`/api/v1/w/${W}/assistant/conversations/${C}/feedbacks`)
      .expect(200);
    expect(feedbacks.body.feedbacks).toEqual([
      expect.objectContaining({ thumbDirection: 'up', content: 'Short and right.' }),
    ]);

    const wakeUps = await api(t, admin).get(`${base}/${C}/wakeups`).expect(200);
    expect(wakeUps.body.wakeUps).toEqual([
      expect.objectContaining({ status: 'scheduled', agentConfigurationId: AGENT }),
    ]);
  });
});
