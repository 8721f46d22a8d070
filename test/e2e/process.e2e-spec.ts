import { describe, it } from 'node:test';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import { expect } from 'test/support/expect';
import { runServiceToExit, startService, tempDataDir } from 'test/support/service-process';

async function connect(dataDir: string, port: number): Promise<Client> {
  const { user, password, database } = JSON.parse(
    await readFile(join(dataDir, 'postgres-credentials.json'), 'utf8'),
  ) as { user: string; password: string; database: string };
  const client = new Client({ host: '127.0.0.1', port, user, password, database });
  await client.connect();
  return client;
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

  it('runs on the embedded PostgreSQL, shares it with a second process, and keeps data across restarts', async () => {
    const dataDir = await tempDataDir();
    try {
      const first = await startService({ DATA_DIR: dataDir });
      await fetch(`${first.baseUrl}/readyz`).then((res) => expect(res.status).toBe(200));

      const port = await postgresPort(dataDir);
      const client = await connect(dataDir, port);
      await client.query('CREATE TABLE restart_probe (note text)');
      await client.query("INSERT INTO restart_probe VALUES ('kept')");
      await client.end();

      const second = await startService({ DATA_DIR: dataDir });
      await fetch(`${second.baseUrl}/readyz`).then((res) => expect(res.status).toBe(200));
      expect(await postgresPort(dataDir)).toBe(port);
      expect(await second.stop()).toBe(0);
      await fetch(`${first.baseUrl}/readyz`).then((res) => expect(res.status).toBe(200));

      expect(await first.stop()).toBe(0);
      // The process that started the embedded server stopped it.
      await expect(stat(join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow();

      const restarted = await startService({ DATA_DIR: dataDir });
      const again = await connect(dataDir, await postgresPort(dataDir));
      const { rows } = await again.query('SELECT note FROM restart_probe');
      await again.end();
      expect(rows).toEqual([{ note: 'kept' }]);
      expect(await restarted.stop()).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
