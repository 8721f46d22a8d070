import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { docxBombOf, pdfOf } from 'test/support/documents';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { ProcessWatchReport, watchProcess } from 'test/support/process-watch';
import { bootstrapWorkspace, useServedApiDocument } from 'test/support/service-api';
import { ServiceProcess, startService, tempDataDir } from 'test/support/service-process';
import { createTestDatabase } from 'test/support/test-app';
import { ApiWorld, KeyHolder, api } from 'test/support/world';

const MIB = 1024 * 1024;
/** A health check slower than this means the service's event loop was held. */
const STALL_MS = 2_000;
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const TEXT_SIZE = 200 * MIB;
/** The service's defaults, which the messages name. */
const FRAGMENT_BUDGET_BYTES = 262_144;

interface FileBody {
  sId: string;
  status: string;
  path: string;
  textBytes?: number | null;
}

/**
 * Posts `content` as the one multipart part of an upload, streamed: the test never holds the whole
 * content. Answers the status and the parsed body.
 */
function upload(
  url: string,
  secret: string,
  file: { contentType: string; size: number },
  content: Iterable<Buffer>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const boundary = `hostile${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload"\r\n` +
      `Content-Type: ${file.contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${secret}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(head.length + file.size + tail.length),
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (data: string) => (text += data));
      res.on('end', () =>
        resolve({ status: res.statusCode!, body: JSON.parse(text) as Record<string, unknown> }),
      );
    });
    const chunks = content[Symbol.iterator]();
    const write = () => {
      for (let next = chunks.next(); !next.done; next = chunks.next()) {
        if (!req.write(next.value)) return void req.once('drain', write);
      }
      req.end(tail);
    };
    req.write(head);
    write();
  });
}

/** `total` bytes of text, one reused 1 MiB chunk at a time. */
function* textChunks(total: number): Generator<Buffer> {
  const chunk = Buffer.from('All work and no play makes Jack a dull boy.\n'.repeat(MIB / 32)).subarray(
    0,
    MIB,
  );
  for (let sent = 0; sent < total; sent += chunk.length) yield chunk.subarray(0, Math.min(MIB, total - sent));
}

/**
 * The service answered every health check and none waited for a stalled event loop (the probe saw
 * one of a minute). The p99 is printed, not asserted: a latency target belongs to the bench, and CI
 * runs two spec files at once.
 */
function expectHealthy(label: string, report: ProcessWatchReport): void {
  process.stderr.write(`FIGURES ${label} ${JSON.stringify(report)}\n`);
  expect(report.healthChecks).toBeGreaterThan(0);
  expect({ healthFailures: report.healthFailures, stalled: report.healthMaxMs >= STALL_MS }).toEqual({
    healthFailures: 0,
    stalled: false,
  });
}

describe('hostile files against a running service', () => {
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let service: ServiceProcess;
  let admin: KeyHolder;
  let world: ApiWorld;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await tempDataDir();
    // Room for the 200 MiB text; every parsing limit at its default.
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, FILE_MAX_MB_DOCUMENT: '256' };
    service = await startService(env);
    await useServedApiDocument(service.baseUrl);
    const boot = await bootstrapWorkspace(env, 'Hostile Files');
    admin = { secret: boot.apiKey.secret, workspace: boot.workspace };
    world = new ApiWorld(service.baseUrl);
  });

  afterAll(async () => {
    await service?.stop('SIGKILL');
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** Uploads while the service is watched; the process must stay up, responsive and within its memory. */
  async function watchedUpload(
    contentType: string,
    size: number,
    content: Iterable<Buffer>,
  ): Promise<{ file: FileBody; status: number; body: Record<string, unknown> }> {
    const file = await world.file<FileBody>(admin, { contentType, fileName: 'upload', fileSize: size });
    const watch = await watchProcess(service.baseUrl, service.pid);
    const answer = await upload(
      `${service.baseUrl}${file.path}`,
      admin.secret,
      { contentType, size },
      content,
    );
    const report = await watch.stop();
    expectHealthy(contentType, report);
    expect({ rssGrowthUnder256MiB: report.peakRssGrowthBytes < 256 * MIB }).toEqual({
      rssGrowthUnder256MiB: true,
    });
    return { file, ...answer };
  }

  const fileStatus = async (sId: string) =>
    (
      (
        await api(service.baseUrl, admin)
          .get(`${paths.files(admin.workspace.sId)}/${sId}`)
          .expect(200)
      ).body.file as FileBody
    ).status;

  it('refuses a DOCX zip bomb from its zip directory, naming DOCX_MAX_UNZIPPED_MB', async () => {
    const bomb = docxBombOf(50 * MIB);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const { file, status, body } = await watchedUpload(DOCX, bomb.length, [bomb]);
    expect({ status, body }).toEqual({
      status: 400,
      body: {
        error: {
          type: 'file_too_large',
          message: expect.stringMatching(
            /^This DOCX file is too large once uncompressed: its XML parts take 5\d{7} bytes; DOCX_MAX_UNZIPPED_MB allows 8 MiB\.$/,
          ),
        },
      },
    });
    expect(await fileStatus(file.sId)).toBe('failed');
  });

  it('refuses a PDF of 20,000 pages before reading a page, naming PDF_MAX_PAGES', async () => {
    const pdf = pdfOf(['One more page.'], 20_000);
    expect(pdf.length).toBeGreaterThan(2.5 * MIB);
    const { file, status, body } = await watchedUpload('application/pdf', pdf.length, [pdf]);
    expect({ status, body }).toEqual({
      status: 400,
      body: {
        error: {
          type: 'file_too_large',
          message: 'This PDF file has 20000 pages; PDF_MAX_PAGES allows 2000.',
        },
      },
    });
    expect(await fileStatus(file.sId)).toBe('failed');
  });

  it('keeps of a 200 MiB text only what a model can read, saying where it was cut', async () => {
    const { status, body } = await watchedUpload('text/plain', TEXT_SIZE, textChunks(TEXT_SIZE));
    expect(status).toBe(200);
    const file = body.file as FileBody;
    expect(file.status).toBe('ready');

    const { sId: cId } = await world.conversation(admin, { title: 'Big text' });
    const fragment = (
      await api(service.baseUrl, admin)
        .post(`${paths.conversation(admin.workspace.sId, cId)}/content_fragments`)
        .send({ title: 'big.txt', fileId: file.sId })
        .expect(200)
    ).body.contentFragment as { textBytes: number; textUrl: string };
    expect(fragment.textBytes).toBeLessThanOrEqual(FRAGMENT_BUDGET_BYTES);
    const text = (await api(service.baseUrl, admin).get(fragment.textUrl).expect(200)).text;
    expect(Buffer.byteLength(text)).toBe(fragment.textBytes);
    expect(text).toMatch(/^All work and no play makes Jack a dull boy\.\n/);
    expect(text).toMatch(
      /\n\n\[Text cut after \d+ bytes: a conversation's files give a model at most 262144 bytes of text \(CONTENT_FRAGMENT_BUDGET_BYTES\)\.\]$/,
    );
  });

  it('upserts a document of 5 MB of text without holding the event loop', async () => {
    const wId = admin.workspace.sId;
    const space = await world.globalSpace(admin);
    const created = await api(service.baseUrl, admin)
      .post(`${paths.spaces(wId)}/${space}/data_sources`)
      .send({ name: 'Long documents' })
      .expect(200);
    const dsId = (created.body.dataSource as { sId: string }).sId;
    const words = ['refund', 'policy', 'invoice', 'customer', 'quarter', 'revenue', 'contract', 'renewal'];
    const text = Array.from({ length: 620_000 }, (_, i) => words[(i * 7) % words.length]).join(' ');
    // Just under DOCUMENT_MAX_TEXT_BYTES (5,000,000 by default).
    expect(Buffer.byteLength(text)).toBeGreaterThan(4.9e6);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(5e6);

    const watch = await watchProcess(service.baseUrl, service.pid);
    const res = await api(service.baseUrl, admin)
      .post(`/api/v1/w/${wId}/spaces/${space}/data_sources/${dsId}/documents/long`)
      .send({ title: 'Long', text, light_document_output: true });
    const report = await watch.stop();
    expect(res.status).toBe(200);
    expect((res.body.document as { chunk_count: number }).chunk_count).toBe(
      Math.ceil((620_000 - 256) / 224) + 1,
    );
    expectHealthy('document upsert of 5 MB', report);
  });
});
