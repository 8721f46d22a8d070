import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { expect } from 'test/support/expect';
import { asBytes } from 'test/support/bytes';
import { TestApp, createTestApp } from 'test/support/test-app';
import { World, WorkspaceFixture, api } from 'test/support/world';

// The SDK's notice about Node 20 support belongs in the service's logs, not in every test run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const BUCKET = 'agent-files';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('files in an S3-compatible bucket', () => {
  let server: S3rver;
  let directory: string;
  let client: S3Client;
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;

  const keys = async () =>
    ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key);

  const upload = (file: { uploadUrl: string }, content: Buffer) => {
    const url = new URL(file.uploadUrl);
    return api(t)
      .post(`${url.pathname}${url.search}`)
      .attach('file', content, { filename: 'data.txt', contentType: 'text/plain' });
  };

  /** Random bytes that are text, as the text/plain content they are declared as must be. */
  const randomText = (size: number) => Buffer.from(randomBytes(size).toString('base64').slice(0, size));

  const download = async (path: string): Promise<Buffer> => {
    const res = await api(t, a.admin).get(`${path}?action=download`).buffer(true).parse(asBytes).expect(200);
    return res.body as Buffer;
  };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'wa-s3-'));
    server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
    const { port } = await server.run();
    const endpoint = `http://127.0.0.1:${port}`;
    // s3rver's fixed credentials.
    const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
    client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
    await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
    t = await createTestApp({
      env: {
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: endpoint,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: credentials.accessKeyId,
        S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        S3_FORCE_PATH_STYLE: true,
      },
    });
    world = new World(t);
    a = await world.workspace();
  });
  afterAll(async () => {
    await t?.close();
    client?.destroy();
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('stores an upload in the bucket, serves the same bytes, and deletes them', async () => {
    const content = Buffer.from('stored in a bucket\n'.repeat(100));
    const file = await world.file(a.admin, { fileName: 'data.txt', fileSize: content.length });
    const res = await upload(file, content).expect(200);
    expect(res.body).toMatchApiSchema('FileResponse');
    expect(res.body.file.status).toBe('ready');
    expect(await keys()).toEqual([`${a.workspace.id}/${file.sId}`]);
    expect(Buffer.compare(await download(file.path), content)).toBe(0);
    await api(t, a.admin).delete(file.path).expect(204);
    expect(await keys()).toEqual([]);
  });

  it('streams a content larger than one part as a multipart upload', async () => {
    const content = randomText(19 * 1024 * 1024);
    const file = await world.file(a.admin, { fileName: 'data.txt', fileSize: content.length });
    await upload(file, content).expect(200);
    expect(sha256(await download(file.path))).toBe(sha256(content));
    await api(t, a.admin).delete(file.path).expect(204);
  });

  it('leaves nothing in the bucket when the content is refused, in one part or several', async () => {
    for (const [declared, sent] of [
      [100, 101],
      [10 * 1024 * 1024, 10 * 1024 * 1024 + 1],
    ]) {
      const file = await world.file(a.admin, { fileName: 'data.txt', fileSize: declared });
      const res = await upload(file, randomText(sent));
      expect({ status: res.status, type: res.body.error?.type }).toEqual({
        status: 400,
        type: 'file_too_large',
      });
      expect(await keys()).toEqual([]);
    }
  });
});
