import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { Client } from 'pg';
import { asBytes } from 'test/support/bytes';
import { expect } from 'test/support/expect';
import { Bootstrapped, bootstrapWorkspace, useServedApiDocument } from 'test/support/service-api';
import { freePort } from 'src/platform/net/free-port';
import { ServiceProcess, startService, tempDataDir } from 'test/support/service-process';
import { createTestDatabase } from 'test/support/test-app';
import { until } from 'test/support/until';
import { ApiWorld, KeyHolder, api } from 'test/support/world';

interface FileBody {
  sId: string;
  status: string;
  uploadUrl?: string;
  downloadUrl?: string;
}

const CUT_SIZE = 4 * 1024 * 1024;

/**
 * A multipart upload that sends its form's opening and `first` bytes of content, then waits for
 * `finish` with the rest, if it ever comes. `outcome` resolves with how the request ended (an
 * answer, or the connection's error).
 */
function startUpload(
  url: string,
  declaredSize: number,
  first: Buffer,
): { outcome: Promise<string>; finish: (rest: Buffer) => void } {
  const boundary = `faults${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n` +
      'Content-Type: text/plain\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const req = httpRequest(url, {
    method: 'POST',
    headers: {
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
      'Content-Length': String(head.length + declaredSize + tail.length),
    },
  });
  const outcome = new Promise<string>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      resolve(`answered ${res.statusCode}`);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(`failed ${error.code ?? error.message}`));
  });
  req.write(Buffer.concat([head, first]));
  return { outcome, finish: (rest) => req.end(Buffer.concat([rest, tail])) };
}

describe('an app process killed during an upload', () => {
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let env: Record<string, string>;
  let db: Client;
  const processes: ServiceProcess[] = [];

  const exists = (path: string) =>
    stat(path).then(
      () => true,
      () => false,
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await tempDataDir();
    const port = await freePort();
    // The restarted process takes the same address, so the upload URLs it handed out stay valid.
    env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    };
    db = new Client({ connectionString: database.url });
    await db.connect();
  });

  afterAll(async () => {
    for (const service of processes) await service.stop('SIGKILL');
    await db?.end();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('leaves no ready record without its content, refuses a second upload cleanly, and a later start fails it and removes its partial content', async () => {
    const first = await startService(env);
    processes.push(first);
    await useServedApiDocument(first.baseUrl);
    const boot: Bootstrapped = await bootstrapWorkspace(env, 'Upload Crash');
    const wId = boot.workspace.sId;
    const admin: KeyHolder = { secret: boot.apiKey.secret, workspace: boot.workspace };
    const [{ id: workspaceId }] = (
      await db.query<{ id: number }>('SELECT id FROM workspaces WHERE s_id = $1', [wId])
    ).rows;
    const blobPath = (sId: string) => join(dataDir, 'files', String(workspaceId), sId);
    const incoming = join(dataDir, 'files', '.incoming');
    const getFile = async (baseUrl: string, sId: string) => {
      const res = await api(baseUrl, admin).get(`/api/w/${wId}/files/${sId}`).expect(200);
      expect(res.body).toMatchApiSchema('FileResponse');
      return res.body.file as FileBody;
    };

    const uploadWhole = async (file: FileBody, content: string) => {
      const form = new FormData();
      form.append('file', new Blob([content], { type: 'text/plain' }), 'notes.txt');
      const res = await fetch(file.uploadUrl!, { method: 'POST', body: form });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchApiSchema('FileResponse');
      expect((body as { file: FileBody }).file.status).toBe('ready');
    };

    // A file uploaded whole before the crash: ready, with its content.
    const doneContent = randomBytes(3000).toString('base64');
    const done = await new ApiWorld(first.baseUrl).file<FileBody>(admin, { fileSize: doneContent.length });
    await uploadWhole(done, doneContent);

    // A file whose upload is under way, with bytes already in storage, when the process dies.
    const cut = await new ApiWorld(first.baseUrl).file<FileBody>(admin, { fileSize: CUT_SIZE });
    const { outcome } = startUpload(cut.uploadUrl!, CUT_SIZE, Buffer.alloc(256 * 1024, 'a'));
    await until(
      async () => {
        const drafts = await readdir(incoming).catch(() => [] as string[]);
        const sizes = await Promise.all(drafts.map(async (name) => (await stat(join(incoming, name))).size));
        return sizes.reduce((sum, size) => sum + size, 0);
      },
      (stored) => stored > 0,
      30_000,
    );
    expect(await first.stop('SIGKILL')).toBeNull();
    expect(await outcome).toMatch(/^failed /);

    const second = await startService(env);
    processes.push(second);
    const afterCrash = await getFile(second.baseUrl, cut.sId);
    expect(afterCrash.status).not.toBe('ready');
    expect(afterCrash.downloadUrl).toBeUndefined();
    expect(await exists(blobPath(cut.sId))).toBe(false);
    const download = await api(second.baseUrl, admin)
      .get(`/api/w/${wId}/files/${cut.sId}?action=download`)
      .expect(400);
    expect(download.body).toEqual({ error: { type: 'invalid_request_error', message: expect.any(String) } });

    // The interrupted upload still holds its claim: a retry is refused with the envelope, and changes nothing.
    const retryForm = new FormData();
    retryForm.append('file', new Blob([Buffer.alloc(CUT_SIZE, 'b')], { type: 'text/plain' }), 'big.txt');
    const retry = await fetch(cut.uploadUrl!, { method: 'POST', body: retryForm });
    expect(retry.status).toBe(400);
    const retryBody = await retry.json();
    expect(retryBody).toEqual({ error: { type: 'invalid_request_error', message: expect.any(String) } });
    expect(retryBody).toMatchApiSchema('ErrorResponse');
    expect((await getFile(second.baseUrl, cut.sId)).status).toBe(afterCrash.status);
    expect(await exists(blobPath(cut.sId))).toBe(false);

    // Uploading again means a new file, which the restarted process takes whole.
    const againContent = randomBytes(2000).toString('base64');
    const again = await new ApiWorld(second.baseUrl).file<FileBody>(admin, { fileSize: againContent.length });
    await uploadWhole(again, againContent);

    // The file finished before the crash is intact.
    expect((await getFile(second.baseUrl, done.sId)).status).toBe('ready');
    const content = await api(second.baseUrl, admin)
      .get(`/api/w/${wId}/files/${done.sId}?action=download`)
      .buffer(true)
      .parse(asBytes)
      .expect(200);
    expect((content.body as Buffer).toString()).toBe(doneContent);

    const ready = await db.query<{ s_id: string }>(
      "SELECT s_id FROM files WHERE workspace_id = $1 AND status = 'ready' ORDER BY id",
      [workspaceId],
    );
    expect(ready.rows.map((row) => row.s_id)).toEqual([done.sId, again.sId]);
    for (const row of ready.rows) expect(await exists(blobPath(row.s_id))).toBe(true);
    expect(await second.stop()).toBe(0);

    // A draft of the killed upload is still in storage; the next start finds the upload dead (no
    // heartbeat for two sweep intervals), fails its file and removes the draft, without waiting
    // for the upload window to close.
    expect((await readdir(incoming)).length).toBe(1);
    const quickSweeps = { ...env, FILE_SWEEP_INTERVAL_SECONDS: '1' };
    const third = await startService(quickSweeps);
    processes.push(third);
    const failed = await until(
      () => getFile(third.baseUrl, cut.sId),
      (file) => file.status === 'failed',
      10_000,
    );
    expect(failed.uploadUrl).toBeUndefined();
    expect(
      await until(
        () => readdir(incoming),
        (names) => names.length === 0,
        10_000,
      ),
    ).toEqual([]);
    const [{ failure_reason }] = (
      await db.query<{ failure_reason: string }>('SELECT failure_reason FROM files WHERE s_id = $1', [
        cut.sId,
      ])
    ).rows;
    expect(failure_reason).toMatch(/stopped with the process/);
    expect(await exists(blobPath(cut.sId))).toBe(false);
    expect(await exists(blobPath(done.sId))).toBe(true);
    expect(await exists(blobPath(again.sId))).toBe(true);

    // An upload that is alive is not failed, however long it pauses: its process keeps it beating.
    const slow = await new ApiWorld(third.baseUrl).file<FileBody>(admin, { fileSize: 2048 });
    const upload = startUpload(slow.uploadUrl!, 2048, Buffer.alloc(1024, 's'));
    await until(
      () => readdir(incoming),
      (names) => names.length === 1,
      10_000,
    );
    // Real time, in another process: longer than the two sweep intervals (1 s each) after which an
    // upload without a heartbeat is failed, so that sweeps ran while this one paused.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect((await getFile(third.baseUrl, slow.sId)).status).toBe('created');
    expect((await readdir(incoming)).length).toBe(1);
    upload.finish(Buffer.alloc(1024, 's'));
    expect(await upload.outcome).toBe('answered 200');
    expect((await getFile(third.baseUrl, slow.sId)).status).toBe('ready');
    expect(await third.stop()).toBe(0);
  });
});
