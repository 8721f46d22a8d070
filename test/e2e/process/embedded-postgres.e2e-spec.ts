import { afterAll, describe, it } from '@jest/globals';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import { DatabaseHandle, startOrAttachEmbeddedPostgres } from 'src/platform/database/embedded-postgres';
import { expect } from 'test/support/expect';
import { tempDataDir } from 'test/support/service-process';

/** The client's address as the server sees it: null over a Unix socket. */
async function clientAddress(url: string): Promise<string | null> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ address: string | null }>(
      'SELECT inet_client_addr()::text AS address',
    );
    return rows[0].address;
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL', () => {
  const dirs: string[] = [];
  const handles: DatabaseHandle[] = [];

  const start = async (dataDir: string) => {
    const handle = await startOrAttachEmbeddedPostgres({
      dataDir,
      log: () => undefined,
      database: 'wa_embedded',
    });
    handles.push(handle);
    return handle;
  };

  afterAll(async () => {
    for (const handle of handles.reverse()) await handle.release();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('is reached over its Unix socket, by the process that started it and by one that attaches', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const started = await start(dataDir);
    const attached = await start(dataDir);

    expect(started.startedHere).toBe(true);
    expect(attached.startedHere).toBe(false);
    expect(await clientAddress(started.url)).toBeNull();
    expect(await clientAddress(attached.url)).toBeNull();
  });

  it('is reached over loopback TCP when its directory is too deep for a socket path', async () => {
    const parent = await tempDataDir();
    dirs.push(parent);
    const dataDir = join(parent, 'a-directory-name-long-enough-that-no-unix-socket-path-fits-under-it');
    await mkdir(dataDir, { mode: 0o755 });
    const started = await start(dataDir);

    expect(started.startedHere).toBe(true);
    expect(await clientAddress(started.url)).toBe('127.0.0.1/32');
  });
});
