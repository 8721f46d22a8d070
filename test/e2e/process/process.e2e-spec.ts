import { describe, it } from '@jest/globals';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SCOPES } from 'src/platform/auth/scopes';
import { localAnswer } from 'src/modules/runtime/domain/local-answer';
import { expect } from 'test/support/expect';
import { Bootstrapped, useServedApiDocument } from 'test/support/service-api';
import { runCli, runServiceToExit, startService, tempDataDir } from 'test/support/service-process';
import { until } from 'test/support/until';
import { ApiWorld } from 'test/support/world';

const ASSISTANT_INSTRUCTIONS =
  'You are a helpful assistant. Answer the latest message using the conversation so far.';

async function me(baseUrl: string, boot: Bootstrapped): Promise<number> {
  const res = await fetch(`${baseUrl}/api/w/${boot.workspace.sId}/me`, {
    headers: { Authorization: `Bearer ${boot.apiKey.secret}` },
  });
  return res.status;
}

async function postgresPort(dataDir: string): Promise<number> {
  const pid = await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
  return Number(pid.split('\n')[3]);
}

describe('the service as a process', () => {
  const refused: [Record<string, string>, string][] = [
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://root@localhost/app' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'chatty' }, 'LOG_LEVEL'],
    [{ PUBLIC_BASE_URL: 'not a url' }, 'PUBLIC_BASE_URL'],
  ];
  for (const [env, variable] of refused) {
    it(`refuses ${JSON.stringify(env)} with one clear line naming ${variable}`, async () => {
      const { code, stdout, stderr } = await runServiceToExit(env);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^Configuration error: ${variable} `));
    });
  }

  it('runs on the embedded PostgreSQL, shares it with the CLI and a second process, and keeps data across restarts', async () => {
    const dataDir = await tempDataDir();
    try {
      const first = await startService({ DATA_DIR: dataDir });
      await fetch(`${first.baseUrl}/readyz`).then((res) => expect(res.status).toBe(200));
      const port = await postgresPort(dataDir);

      // The CLI attaches to the running embedded server; its key works at once.
      const cli = await runCli(
        ['bootstrap', '--workspace', 'Acme Inc', '--email', 'ada@example.com', '--name', 'Ada Lovelace'],
        { DATA_DIR: dataDir },
      );
      expect(cli.code).toBe(0);
      const lines = cli.stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      const boot = JSON.parse(lines[0]) as Bootstrapped;
      expect(boot).toEqual({
        workspace: { sId: expect.stringMatching(/^[0-9A-Za-z]{10}$/), name: 'Acme Inc' },
        user: { sId: expect.stringMatching(/^[0-9A-Za-z]{10}$/), email: 'ada@example.com' },
        apiKey: {
          id: expect.stringMatching(/^key_/),
          secret: expect.stringMatching(/^sk-[0-9A-Za-z]{32}$/),
          scopes: SCOPES,
        },
      });
      expect(await postgresPort(dataDir)).toBe(port);
      expect(await me(first.baseUrl, boot)).toBe(200);

      const second = await startService({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
      expect(await me(second.baseUrl, boot)).toBe(200);
      // At info a start says where it listens and where the docs are, not every route it mapped.
      const startup = second.output().trim().split('\n');
      const listening = startup.findIndex((line) => line.includes('Workspace Agent API on Node'));
      expect(listening).toBeGreaterThanOrEqual(0);
      expect(listening + 1).toBeLessThan(15);
      expect(startup[listening]).toContain(`/api/docs`);
      // The process that serves runs the Node the scripts run (24, brought by npm ci), and says so.
      expect(startup[listening]).toContain(`on Node ${process.version} listening`);
      expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
      expect(await second.stop()).toBe(0);
      expect(await me(first.baseUrl, boot)).toBe(200);

      expect(await first.stop()).toBe(0);
      // The process that started the embedded server stopped it.
      await expect(stat(join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow();

      const restarted = await startService({ DATA_DIR: dataDir });
      expect(await me(restarted.baseUrl, boot)).toBe(200);
      expect(await restarted.stop()).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('resumes the answers of a process killed mid-answer, and answers the mentions it had queued', async () => {
    const dataDir = await tempDataDir();
    const env = { DATA_DIR: dataDir, RUN_HEARTBEAT_MS: '200', RUN_STALE_AFTER_MS: '1000' };
    const questions = ['Long task', 'Queued one', 'Queued two', 'Queued three'];
    try {
      // One answer at a time, slowly: the others wait in the queue when the process dies.
      const first = await startService({ ...env, LOCAL_MODEL_CHUNK_DELAY_MS: '300', RUN_CONCURRENCY: '1' });
      const boot = JSON.parse(
        (await runCli(['bootstrap', '--workspace', 'Crash', '--email', 'c@example.com', '--name', 'C'], env))
          .stdout,
      ) as Bootstrapped;
      const admin = { secret: boot.apiKey.secret, workspace: boot.workspace };
      await useServedApiDocument(first.baseUrl);
      const world = new ApiWorld(first.baseUrl);
      const { assistant } = await world.globalAgents({ admin });
      const conversations: { sId: string }[] = [];
      for (const message of questions)
        conversations.push(
          await world.conversation(admin, {
            message,
            mentions: [assistant],
            context: { username: 'c', timezone: 'UTC' },
          }),
        );
      const answers = async (baseUrl: string) =>
        Promise.all(
          conversations.map(async ({ sId }) =>
            (await new ApiWorld(baseUrl).messages(admin, sId)).find(
              (found) => found.type === 'agent_message',
            ),
          ),
        );
      const cut = await until(
        () => answers(first.baseUrl),
        (found) => Boolean(found[0]?.content),
        20_000,
      );
      expect(cut[0]).toMatchObject({ status: 'created', content: expect.stringMatching(/.+/) });
      expect(cut.slice(1)).toEqual([undefined, undefined, undefined]);

      await first.stop('SIGKILL');
      const second = await startService({ ...env, LOCAL_MODEL_CHUNK_DELAY_MS: '5' });
      const ended = await until(
        () => answers(second.baseUrl),
        (found) => found.every((answer) => answer?.status === 'succeeded'),
        40_000,
      );
      expect(ended).toEqual(
        questions.map((content) =>
          expect.objectContaining({
            status: 'succeeded',
            error: null,
            content: localAnswer(ASSISTANT_INSTRUCTIONS, [{ role: 'user', content }]),
          }),
        ),
      );
      expect(ended[0]?.content.startsWith(cut[0]!.content)).toBe(true);
      expect(await second.stop()).toBe(0);
    } finally {
      // The killed process could not stop the embedded server it started.
      const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
      const pid = await readFile(pidFile, 'utf8').then(
        (content) => Number(content.split('\n')[0]),
        () => 0,
      );
      if (pid > 0) {
        process.kill(pid, 'SIGINT');
        // PostgreSQL removes its lock file once it has stopped.
        await until(
          () =>
            stat(pidFile).then(
              () => true,
              () => false,
            ),
          (present) => !present,
          30_000,
        );
      }
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('reports CLI mistakes on stderr with exit code 1', async () => {
    const dataDir = await tempDataDir();
    try {
      const unknown = await runCli(['frobnicate'], { DATA_DIR: dataDir });
      expect(unknown).toMatchObject({ code: 1, stdout: '' });
      expect(unknown.stderr).toMatch(/^Unknown command "frobnicate"/);
      const missing = await runCli(['bootstrap', '--workspace', 'W'], { DATA_DIR: dataDir });
      expect(missing).toMatchObject({ code: 1, stdout: '' });
      expect(missing.stderr).toContain('--email');
      const badRole = await runCli(
        ['members', 'add', '--workspace', 'nowhere', '--email', 'a@b.co', '--name', 'A', '--role', 'user'],
        { DATA_DIR: dataDir },
      );
      expect(badRole).toMatchObject({ code: 1, stdout: '' });
      expect(badRole.stderr).toMatch(/Workspace nowhere not found/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
