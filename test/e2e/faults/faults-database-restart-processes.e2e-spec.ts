import { afterEach, describe, it } from '@jest/globals';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from 'src/platform/net/free-port';
import {
  DatabaseHandle,
  startOrAttachEmbeddedPostgres,
  stopEmbeddedPostgres,
} from 'src/platform/database/embedded-postgres';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { watchProcess } from 'test/support/process-watch';
import { Bootstrapped, bootstrapWorkspace, useServedApiDocument } from 'test/support/service-api';
import { ServiceProcess, runCli, startService, tempDataDir } from 'test/support/service-process';
import { until } from 'test/support/until';
import { ApiWorld, KeyHolder } from 'test/support/world';

/** The postmaster of `dataDir`'s embedded server, from its `postmaster.pid`: pid and port, or null. */
async function postmaster(dataDir: string): Promise<{ pid: number; port: number } | null> {
  const content = await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => null);
  if (content === null) return null;
  const [pid, , , port] = content.split('\n').map(Number);
  return { pid, port };
}

/** The status of a read that needs the database: a conversation of the workspace. */
async function readStatus(baseUrl: string, admin: KeyHolder, cId: string): Promise<number> {
  const res = await fetch(`${baseUrl}${paths.conversation(admin.workspace.sId, cId)}`, {
    headers: { Authorization: `Bearer ${admin.secret}` },
    signal: AbortSignal.timeout(30_000),
  });
  await res.arrayBuffer();
  return res.status;
}

async function status(url: string): Promise<number> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  await res.arrayBuffer();
  return res.status;
}

/** Reads one after the other until stopped, recording every status. */
function keepReading(read: () => Promise<number>): { statuses: number[]; stop(): Promise<number[]> } {
  const statuses: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      statuses.push(await read().catch(() => 0));
      // A pace, not a wait: the reads sample a restart that takes its own time in another process.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    statuses,
    stop: async () => {
      running = false;
      await loop;
      return statuses;
    },
  };
}

describe('processes sharing one embedded PostgreSQL', () => {
  const processes: ServiceProcess[] = [];
  let dataDir: string | undefined;
  let testServer: DatabaseHandle | null = null;

  afterEach(async () => {
    for (const service of processes.splice(0)) await service.stop('SIGKILL');
    await testServer?.release();
    testServer = null;
    if (dataDir) {
      await stopEmbeddedPostgres(dataDir);
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps serving from the other process when the one that started the server stops during an answer', async () => {
    dataDir = await tempDataDir();
    const env = { DATA_DIR: dataDir, LOCAL_MODEL_CHUNK_DELAY_MS: '500' };
    const owner = await startService(env);
    processes.push(owner);
    const started = await postmaster(dataDir);
    const other = await startService(env);
    processes.push(other);
    await useServedApiDocument(owner.baseUrl);
    const boot = await bootstrapWorkspace(env, 'Shared Server');
    const admin: KeyHolder = { secret: boot.apiKey.secret, workspace: boot.workspace };
    const { assistant } = await new ApiWorld(owner.baseUrl).globalAgents({ admin });
    const ownerWorld = new ApiWorld(owner.baseUrl);
    const created = await ownerWorld.conversation(admin, {
      message: 'A long answer, please',
      mentions: [assistant],
    });
    await until(
      () => ownerWorld.messages(admin, created.sId),
      (messages) => messages.some((m) => m.type === 'agent_message' && m.status === 'created'),
    );

    const reads = keepReading(() => readStatus(other.baseUrl, admin, created.sId));
    await until(
      async () => reads.statuses.length,
      (count) => count >= 5,
    );
    expect(await owner.stop('SIGTERM')).toBe(0);
    const readsBeforeExit = reads.statuses.length;
    await until(
      async () => reads.statuses.length,
      (count) => count >= readsBeforeExit + 50,
      60_000,
    );
    // Not one answer of the other process failed while the owner stopped or after it left.
    expect(new Set(await reads.stop())).toEqual(new Set([200]));
    expect(await postmaster(dataDir)).toEqual(started);

    const otherWorld = new ApiWorld(other.baseUrl);
    // The owner handed its run over: the other process finished the answer.
    const [answer] = (await otherWorld.settled(admin, created.sId)).filter((m) => m.type === 'agent_message');
    expect(answer.status).toBe('succeeded');
    const after = await otherWorld.conversation(admin, { title: 'After the owner left' });
    expect(await readStatus(other.baseUrl, admin, after.sId)).toBe(200);

    // The CLI attaches to the server the owner left running; its key works on the other process.
    const cli = await runCli(
      ['bootstrap', '--workspace', 'Late', '--email', 'late@example.com', '--name', 'Late Admin'],
      env,
    );
    expect(cli.code).toBe(0);
    const late = JSON.parse(cli.stdout) as Bootstrapped;
    const lateAdmin: KeyHolder = { secret: late.apiKey.secret, workspace: late.workspace };
    const lateConversation = await otherWorld.conversation(lateAdmin, { title: 'From the CLI key' });
    expect(await readStatus(other.baseUrl, lateAdmin, lateConversation.sId)).toBe(200);

    // The last process to leave stops the server; the next one starts it again, with the data.
    expect(await other.stop('SIGTERM')).toBe(0);
    await expect(stat(join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow();
    const next = await startService(env);
    processes.push(next);
    expect(await readStatus(next.baseUrl, admin, created.sId)).toBe(200);
    expect(await readStatus(next.baseUrl, lateAdmin, lateConversation.sId)).toBe(200);
    expect(await next.stop('SIGTERM')).toBe(0);
  });

  it('serves again on every process within 10 s of the server coming back on another port, after 10 s away', async () => {
    dataDir = await tempDataDir();
    testServer = await startOrAttachEmbeddedPostgres({ dataDir, log: () => undefined });
    const before = await postmaster(dataDir);
    const env = { DATA_DIR: dataDir };
    const [quick, patient] = await Promise.all([
      startService({ ...env, DATABASE_OUTAGE_LIVENESS_MS: '3000' }),
      startService(env),
    ]);
    processes.push(quick, patient);
    await useServedApiDocument(quick.baseUrl);
    const boot = await bootstrapWorkspace(env, 'Outage');
    const admin: KeyHolder = { secret: boot.apiKey.secret, workspace: boot.workspace };
    const { sId: cId } = await new ApiWorld(quick.baseUrl).conversation(admin, { title: 'Before' });
    const services = [quick, patient];
    const patientWatch = await watchProcess(patient.baseUrl, patient.pid, 100);

    // As an operator would, while both processes use it.
    await stopEmbeddedPostgres(dataDir);
    const downUntil = Date.now() + 10_000;
    // Not ready at once, on every process; answers are 503 envelopes, never a hang.
    for (const service of services) {
      await until(
        () => status(`${service.baseUrl}/readyz`),
        (code) => code === 503,
      );
      expect(await readStatus(service.baseUrl, admin, cId)).toBe(503);
    }
    // Past its bound the process tells its liveness probe; one whose bound is not reached stays live.
    await until(
      () => status(`${quick.baseUrl}/healthz`),
      (code) => code === 503,
    );
    const unlive = await fetch(`${quick.baseUrl}/healthz`);
    expect({ status: unlive.status, body: await unlive.json() }).toEqual({
      status: 503,
      body: { error: { type: 'service_unavailable', message: expect.any(String) } },
    });
    while (Date.now() < downUntil) {
      expect(await status(`${quick.baseUrl}/readyz`)).toBe(503);
      // The outage lasts ten real seconds (the processes' clocks are their own): sampled every 200 ms.
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    let port: number;
    do port = await freePort();
    while (port === before!.port);
    // The handle of the stopped server has nothing left to stop.
    testServer = await startOrAttachEmbeddedPostgres({ dataDir, log: () => undefined, port });
    expect((await postmaster(dataDir))?.port).toBe(port);

    await until(
      () =>
        Promise.all(
          services.map(async (service) => [
            await status(`${service.baseUrl}/readyz`),
            await status(`${service.baseUrl}/healthz`),
            await readStatus(service.baseUrl, admin, cId),
          ]),
        ),
      (codes) => codes.flat().every((code) => code === 200),
      10_000,
    );
    const afterwards = await new ApiWorld(patient.baseUrl).conversation(admin, { title: 'After' });
    expect(await readStatus(quick.baseUrl, admin, afterwards.sId)).toBe(200);
    expect((await patientWatch.stop()).healthFailures).toBe(0);
  });
});
