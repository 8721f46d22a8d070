import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { UrlSigner } from 'src/platform/auth/url-signer';
import { UploadLivenessService } from 'src/modules/files/application/upload-liveness.service';
import { expect, expectError } from 'test/support/expect';
import { asBytes } from 'test/support/bytes';
import { docxOf, pdfOf } from 'test/support/documents';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]);

interface FileBody {
  sId: string;
  id: string;
  status: string;
  fileSize: number;
  version: number;
  uploadUrl?: string;
  downloadUrl?: string;
  publicUrl?: string;
  path: string;
  fileName: string;
  contentType: string;
  useCaseMetadata: Record<string, string>;
}

interface Part {
  field?: string;
  content: Buffer;
  filename?: string;
  contentType?: string;
}

describe('files', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;

  const filesPath = (fixture: WorkspaceFixture = a) => `/api/w/${fixture.workspace.sId}/files`;
  /** The path and query of an absolute URL the service returned. */
  const local = (url: string) => {
    const parsed = new URL(url);
    expect(parsed.origin).toBe(t.config.publicBaseUrl);
    return `${parsed.pathname}${parsed.search}`;
  };
  const blobPath = (fixture: WorkspaceFixture, sId: string) =>
    join(t.config.dataDir, 'files', String(fixture.workspace.id), sId);
  const blobExists = (fixture: WorkspaceFixture, sId: string) =>
    stat(blobPath(fixture, sId)).then(
      () => true,
      () => false,
    );
  const row = async (sId: string) =>
    (
      await t.dataSource.query<{ status: string; version: number; file_size: string }[]>(
        'SELECT status, version, file_size FROM files WHERE s_id = $1',
        [sId],
      )
    )[0];
  const fileCount = async () =>
    Number((await t.dataSource.query<{ n: string }[]>('SELECT count(*) AS n FROM files'))[0].n);

  const textFile = (fileSize = 1000, extra: Record<string, unknown> = {}) => ({
    contentType: 'text/plain',
    fileName: 'notes.txt',
    fileSize,
    useCase: 'conversation',
    ...extra,
  });

  /** POSTs a multipart body to `path` (a signed URL's path and query, or a path with a key). */
  function post(path: string, parts: Part[], actor?: Actor): request.Test {
    let req = api(t, actor).post(path);
    for (const part of parts) {
      req = req.attach(part.field ?? 'file', part.content, {
        filename: part.filename ?? 'upload.bin',
        contentType: part.contentType ?? 'application/octet-stream',
      });
    }
    return req;
  }

  /** Nothing was stored for the file, and it is not ready. */
  async function expectNothingStored(fixture: WorkspaceFixture, sId: string, status: 'created' | 'failed') {
    expect(await blobExists(fixture, sId)).toBe(false);
    expect((await row(sId)).status).toBe(status);
    expect(await readdir(join(t.config.dataDir, 'files', '.incoming')).catch(() => [])).toEqual([]);
  }

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        PUBLIC_BASE_URL: 'https://files.example.test',
        // Far above what this file creates in a minute; the limit has its own test.
        FILE_CREATE_RATE_PER_MINUTE: 10_000,
      },
    });
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    member = await world.member(a.workspace, 'user');
  });
  afterAll(() => t.close());

  describe('the happy path', () => {
    it('creates a file with a signed upload URL, exactly as the specification describes it', async () => {
      const file = await world.file<FileBody>(member, textFile(1000, { fileName: 'report.txt' }));
      expect(file).toEqual({
        sId: expect.stringMatching(/^fil_[0-9A-Za-z]{10}$/),
        id: file.sId,
        contentType: 'text/plain',
        fileName: 'report.txt',
        fileSize: 1000,
        status: 'created',
        useCase: 'conversation',
        uploadUrl: expect.any(String),
        version: 1,
        path: `/api/w/${a.workspace.sId}/files/${file.sId}`,
        useCaseMetadata: {},
        owner: member.user.sId,
      });
      const url = new URL(file.uploadUrl!);
      expect(`${url.origin}${url.pathname}`).toBe(`https://files.example.test${file.path}`);
      expect(Number(url.searchParams.get('expires')) * 1000).toBeGreaterThan(Date.now() + 590_000);
      expect(url.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('takes a creation without a use case as a conversation file, as Dust does', async () => {
      const res = await api(t, member)
        .post(filesPath())
        .send({ contentType: 'text/plain', fileName: 'a.txt', fileSize: 1 })
        .expect(200);
      expect(res.body).toMatchApiSchema('FileResponse');
      expect(res.body.file.useCase).toBe('conversation');
      expect(await row(res.body.file.sId as string)).toMatchObject({ status: 'created' });
    });

    it('uploads through the signed URL without a key, then downloads the same bytes', async () => {
      const file = await world.file<FileBody>(member, textFile(1000, { fileName: 'hello.txt' }));
      const content = Buffer.from('hello, files\n'.repeat(20));
      const res = await post(local(file.uploadUrl!), [{ content, filename: 'whatever.txt' }]).expect(200);
      expect(res.body).toMatchApiSchema('FileResponse');
      expect(res.body.file).toMatchObject({
        sId: file.sId,
        status: 'ready',
        fileSize: content.length,
        version: 3,
      });
      expect(res.body.file.uploadUrl).toBeUndefined();
      expect(res.body.file.publicUrl).toBeUndefined();
      expect(res.body.file.downloadUrl).toBe(`https://files.example.test${file.path}?action=download`);

      const download = await api(t, member)
        .get(local(res.body.file.downloadUrl as string))
        .buffer(true)
        .parse(asBytes)
        .expect(200);
      expect(Buffer.compare(download.body as Buffer, content)).toBe(0);
      expect(download.headers['content-type']).toBe('text/plain');
      expect(download.headers['content-length']).toBe(String(content.length));
      expect(download.headers['content-disposition']).toBe(
        `attachment; filename="hello.txt"; filename*=UTF-8''hello.txt`,
      );
      expect(download.headers['x-content-type-options']).toBe('nosniff');

      const record = await api(t, a.admin).get(file.path).expect(200);
      expect(record.body).toMatchApiSchema('FileResponse');
      expect(record.body.file).toEqual(res.body.file);
    });

    it('uploads with a key of the workspace instead of the signature, binary content intact', async () => {
      const file = await world.file<FileBody>(a.admin, {
        contentType: 'image/png',
        fileName: 'pixel.png',
        fileSize: PNG.length,
        useCase: 'conversation',
      });
      const res = await post(file.path, [{ content: PNG, contentType: 'image/png' }], member).expect(200);
      expect(res.body).toMatchApiSchema('FileResponse');
      expect(res.body.file.status).toBe('ready');
      const download = await downloadBytes(member, file.path);
      expect(Buffer.compare(download, PNG)).toBe(0);
      expect(await blobExists(a, file.sId)).toBe(true);
    });

    it('keeps the conversation of a conversation file, which must be one the caller can read', async () => {
      const { sId: conversationId } = await world.conversation(member, { title: 'With files' });
      const file = await world.file<FileBody>(member, textFile(10, { useCaseMetadata: { conversationId } }));
      expect(file.useCaseMetadata).toEqual({ conversationId });
      const before = await fileCount();
      const unknown = await api(t, member)
        .post(filesPath())
        .send(textFile(10, { useCaseMetadata: { conversationId: 'AbCdE12345' } }));
      expectError(unknown, 404, 'conversation_not_found');
      const foreign = await api(t, b.admin)
        .post(filesPath(b))
        .send(textFile(10, { useCaseMetadata: { conversationId } }));
      expectError(foreign, 404, 'conversation_not_found');
      expect(await fileCount()).toBe(before);
    });

    it('stores a sanitised name, and offers it back in a safe Content-Disposition', async () => {
      const file = await world.file<FileBody>(
        member,
        textFile(5, { fileName: '../../etc/pass\u0001wd\u202Etxt.exe' }),
      );
      expect(file.fileName).toBe('.._.._etc/passwdtxt.exe'.replace('/', '_'));
      const long = await world.file<FileBody>(member, textFile(5, { fileName: `${'é'.repeat(400)}.txt` }));
      expect([...long.fileName]).toHaveLength(255);
      expect(long.fileName.endsWith('é.txt')).toBe(true);
      const quoted = await world.file<FileBody>(member, textFile(5, { fileName: 'say "hi" \\ 100%.txt' }));
      await post(quoted.path, [{ content: Buffer.from('hello') }], member).expect(200);
      const res = await api(t, member).get(`${quoted.path}?action=download`).expect(200);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="say _hi_ _ 100_.txt"; filename*=UTF-8''say%20%22hi%22%20_%20100%25.txt`,
      );
    });
  });

  async function downloadBytes(actor: Actor, path: string): Promise<Buffer> {
    const res = await api(t, actor).get(`${path}?action=download`).buffer(true).parse(asBytes).expect(200);
    return res.body as Buffer;
  }

  describe('creation refused', () => {
    const cases: [string, Record<string, unknown>, number, string][] = [
      [
        'an unknown content type',
        textFile(10, { contentType: 'application/x-msdownload' }),
        400,
        'file_type_not_supported',
      ],
      [
        'a type the use case does not take',
        textFile(10, { useCase: 'avatar' }),
        400,
        'file_type_not_supported',
      ],
      [
        'an image over 5 MB',
        { ...textFile(5 * 1024 * 1024 + 1), contentType: 'image/png' },
        400,
        'file_too_large',
      ],
      ['a document over 50 MB', textFile(50 * 1024 * 1024 + 1), 400, 'file_too_large'],
      [
        'audio over 100 MB',
        { ...textFile(100 * 1024 * 1024 + 1), contentType: 'audio/mpeg' },
        400,
        'file_too_large',
      ],
      ['an empty file', textFile(0), 400, 'file_is_empty'],
      ['a null use case', textFile(10, { useCase: null }), 400, 'invalid_request_error'],
      ['an unknown use case', textFile(10, { useCase: 'backup' }), 400, 'invalid_request_error'],
      ['an unknown key', textFile(10, { public: true }), 400, 'invalid_request_error'],
      ['a negative size', textFile(-1), 400, 'invalid_request_error'],
      ['a fractional size', textFile(1.5), 400, 'invalid_request_error'],
      [
        'a name of control characters only',
        textFile(10, { fileName: '\u0001\u0002' }),
        400,
        'invalid_request_error',
      ],
      ['a name of dots only', textFile(10, { fileName: '..' }), 400, 'invalid_request_error'],
      [
        'a malformed conversationId',
        textFile(10, { useCaseMetadata: { conversationId: 'short' } }),
        400,
        'invalid_request_error',
      ],
      [
        'metadata of another use case',
        textFile(10, {
          useCase: 'avatar',
          contentType: 'image/png',
          useCaseMetadata: { conversationId: 'AbCdE12345' },
        }),
        400,
        'invalid_request_error',
      ],
      ['unknown metadata', textFile(10, { useCaseMetadata: { folder: 'x' } }), 400, 'invalid_request_error'],
      [
        'a folders document without its space',
        textFile(10, { useCase: 'folders_document' }),
        400,
        'invalid_request_error',
      ],
      [
        'a folders document in an unknown space',
        textFile(10, { useCase: 'folders_document', useCaseMetadata: { spaceId: 'vlt_nonexistent' } }),
        404,
        'space_not_found',
      ],
    ];
    for (const [name, body, status, type] of cases) {
      it(`refuses ${name} with ${status} ${type}, creating nothing`, async () => {
        const before = await fileCount();
        expectError(await api(t, member).post(filesPath()).send(body), status, type);
        expect(await fileCount()).toBe(before);
      });
    }

    it('needs the write:file scope', async () => {
      const reader = await world.key(member, ['read:file']);
      expectError(await api(t, reader).post(filesPath()).send(textFile()), 403, 'insufficient_key_scope');
    });
  });

  describe('uploads refused', () => {
    it('refuses more bytes than declared with file_too_large, failing the file and keeping no blob', async () => {
      const file = await world.file<FileBody>(member, textFile(100));
      expectError(await post(local(file.uploadUrl!), [{ content: randomBytes(101) }]), 400, 'file_too_large');
      await expectNothingStored(a, file.sId, 'failed');
    });

    it('refuses a large oversize without reading it whole', async () => {
      const file = await world.file<FileBody>(member, textFile(1024));
      expectError(
        await post(file.path, [{ content: randomBytes(3 * 1024 * 1024) }], member),
        400,
        'file_too_large',
      );
      await expectNothingStored(a, file.sId, 'failed');
    });

    it('refuses empty content with file_is_empty', async () => {
      const file = await world.file<FileBody>(member, textFile(100));
      expectError(await post(local(file.uploadUrl!), [{ content: Buffer.alloc(0) }]), 400, 'file_is_empty');
      await expectNothingStored(a, file.sId, 'failed');
    });

    const binary: [string, Buffer][] = [
      ['image/png', PNG],
      ['image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6, 7, 8])],
      ['image/gif', Buffer.from('GIF89a-some-image-bytes')],
      [
        'image/webp',
        Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 2, 3, 4]), Buffer.from('WEBPVP8 ')]),
      ],
      ['application/pdf', pdfOf(['A genuine PDF'])],
    ];
    for (const [contentType, genuine] of binary) {
      it(`accepts a genuine ${contentType} and refuses text posing as one`, async () => {
        const good = await world.file<FileBody>(member, { ...textFile(genuine.length), contentType });
        await post(local(good.uploadUrl!), [{ content: genuine, contentType }]).expect(200);
        const fake = await world.file<FileBody>(member, { ...textFile(100), contentType });
        expectError(
          await post(local(fake.uploadUrl!), [
            { content: Buffer.from('just some text, not binary'), contentType },
          ]),
          400,
          'file_type_not_supported',
        );
        await expectNothingStored(a, fake.sId, 'failed');
      });
    }

    const OLE_HEAD = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const ZIP_HEAD = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);
    const declared: [string, Buffer, Buffer, string][] = [
      [
        'text/plain',
        Buffer.from('Grüße, naïve café 👍\n'),
        Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
        'Latin-1 text',
      ],
      [
        'text/markdown',
        Buffer.from('# Notes\n\n- ✓ done\n'),
        Buffer.concat([PNG, Buffer.alloc(64)]),
        'a PNG',
      ],
      [
        'text/csv',
        Buffer.from('name,city\nZoë,Zürich\n'),
        Buffer.from('name\u0000city\n'),
        'text with a NUL byte',
      ],
      [
        'application/json',
        Buffer.from('{"rows":[{"name":"Zoë","n":1.5e3}],"ok":true}'),
        Buffer.from('{"rows":[1,2,]}'),
        'JSON with a trailing comma',
      ],
      ['application/json', Buffer.from('[]'), Buffer.from('{"unterminated": "str'), 'cut-off JSON'],
      [
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        docxOf(['A genuine DOCX']),
        Buffer.from('<html>not a document</html>'),
        'HTML',
      ],
      [
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        Buffer.concat([ZIP_HEAD, Buffer.alloc(100, 2)]),
        Buffer.concat([OLE_HEAD, Buffer.alloc(100)]),
        'an OLE file',
      ],
      [
        'application/msword',
        Buffer.concat([OLE_HEAD, Buffer.alloc(100)]),
        Buffer.concat([ZIP_HEAD, Buffer.alloc(100)]),
        'a zip file',
      ],
      [
        'application/vnd.ms-excel',
        Buffer.concat([OLE_HEAD, Buffer.alloc(50)]),
        Buffer.from('a,b\n1,2\n'),
        'CSV text',
      ],
    ];
    /** Conversation files need their text, which these types do not give: a use case that reads none. */
    const textless = async (contentType: string): Promise<Record<string, unknown>> => {
      if (contentType.includes('excel') || contentType.includes('spreadsheet'))
        return { useCase: 'upsert_table' };
      if (contentType !== 'application/msword') return {};
      const { sId: spaceId } = await world.space(a.admin, { members: [a.admin, member] });
      return { useCase: 'folders_document', useCaseMetadata: { spaceId } };
    };
    for (const [contentType, genuine, impostor, label] of declared) {
      it(`takes ${contentType} content that is what it claims, and refuses ${label} declared as one, storing nothing`, async () => {
        const useCase = await textless(contentType);
        const good = await world.file<FileBody>(member, {
          ...textFile(genuine.length),
          contentType,
          ...useCase,
        });
        const ok = await post(local(good.uploadUrl!), [{ content: genuine, contentType }]).expect(200);
        expect(ok.body).toMatchApiSchema('FileResponse');
        expect(ok.body.file).toMatchObject({ status: 'ready', fileSize: genuine.length });
        expect(await readFile(blobPath(a, good.sId))).toEqual(genuine);

        const fake = await world.file<FileBody>(member, { ...textFile(impostor.length), contentType });
        const refused = await post(local(fake.uploadUrl!), [{ content: impostor, contentType }]);
        expectError(refused, 400, 'file_type_not_supported');
        expect(refused.body.error.message).toMatch(/not (UTF-8 text|valid JSON|look like)|NUL/);
        await expectNothingStored(a, fake.sId, 'failed');
      });
    }

    const unreadable: [string, Buffer, RegExp][] = [
      ['application/pdf', Buffer.from('%PDF-1.7\n%âãÏÓ\n'), /PDF file could not be read/],
      ['application/pdf', pdfOf([]), /PDF file has no text/],
      [
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        Buffer.concat([ZIP_HEAD, Buffer.alloc(100, 1)]),
        /DOCX file could not be read/,
      ],
      [
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        Buffer.concat([ZIP_HEAD, Buffer.alloc(100, 2)]),
        /cannot be read, and conversation files need their text/,
      ],
    ];
    for (const [contentType, content, reason] of unreadable) {
      it(`fails a conversation file of ${contentType} whose text cannot be read (${reason.source}), storing nothing`, async () => {
        const file = await world.file<FileBody>(member, { ...textFile(content.length), contentType });
        const refused = await post(local(file.uploadUrl!), [{ content, contentType }]);
        expectError(refused, 400, 'file_type_not_supported');
        expect(refused.body.error.message).toMatch(reason);
        await expectNothingStored(a, file.sId, 'failed');
      });
    }

    it('answers a large refused content at once, without waiting for its end', async () => {
      const size = 20 * 1024 * 1024;
      const file = await world.file<FileBody>(member, { ...textFile(size), contentType: 'application/pdf' });
      const res = await post(file.path, [{ content: Buffer.alloc(size, 'x') }], member);
      expectError(res, 400, 'file_type_not_supported');
      await expectNothingStored(a, file.sId, 'failed');
    });

    it('refuses content shorter than the signature it must carry', async () => {
      const file = await world.file<FileBody>(member, { ...textFile(100), contentType: 'image/png' });
      expectError(
        await post(file.path, [{ content: PNG.subarray(0, 4) }], member),
        400,
        'file_type_not_supported',
      );
      await expectNothingStored(a, file.sId, 'failed');
    });

    it('refuses a malformed request before touching the file: wrong part name, a field, no part, not multipart', async () => {
      const file = await world.file<FileBody>(member, textFile(100));
      const path = local(file.uploadUrl!);
      expectError(
        await post(path, [{ field: 'upload', content: Buffer.from('x') }]),
        400,
        'invalid_request_error',
      );
      expectError(
        await api(t).post(path).field('file', 'text instead of a file'),
        400,
        'invalid_request_error',
      );
      expectError(await api(t).post(path).field('comment', 'hello'), 400, 'invalid_request_error');
      expectError(await api(t).post(path).send({ file: 'json' }), 400, 'invalid_request_error');
      expectError(
        await api(t).post(path).set('Content-Type', 'multipart/form-data; boundary=x').send('--x--\r\n'),
        400,
        'invalid_request_error',
      );
      await expectNothingStored(a, file.sId, 'created');
      expect((await row(file.sId)).version).toBe(1);
      await post(path, [{ content: Buffer.from('finally') }]).expect(200);
    });

    it('refuses several files, or a part after the file, keeping nothing', async () => {
      for (const extra of [
        { content: Buffer.from('second') },
        { field: 'other', content: Buffer.from('x') },
      ]) {
        const file = await world.file<FileBody>(member, textFile(100));
        const res = await post(local(file.uploadUrl!), [{ content: Buffer.from('first') }, extra]);
        expectError(res, 400, 'invalid_request_error');
        await expectNothingStored(a, file.sId, 'failed');
      }
    });

    it('refuses a second upload to a file that is no longer created', async () => {
      const file = await world.file<FileBody>(member, textFile(100));
      await post(local(file.uploadUrl!), [{ content: Buffer.from('once') }]).expect(200);
      expectError(
        await post(local(file.uploadUrl!), [{ content: Buffer.from('twice') }]),
        400,
        'invalid_request_error',
      );
      expect((await downloadBytes(member, file.path)).toString()).toBe('once');
    });

    it('answers a tampered or expired signature with 403 and changes nothing', async () => {
      const file = await world.file<FileBody>(member, textFile(100));
      const url = new URL(file.uploadUrl!);
      const signature = url.searchParams.get('signature')!;
      const other = await world.file<FileBody>(member, textFile(100));
      const signer = t.app.get(UrlSigner);
      const tampered = [
        `${file.path}?expires=${url.searchParams.get('expires')}&signature=${signature.slice(0, -2)}AA`,
        `${file.path}?expires=${Number(url.searchParams.get('expires')) + 3600}&signature=${signature}`,
        `${other.path}${url.search}`,
        `${file.path}?signature=${signature}`,
        `${file.path}?${signer.signQuery('POST', file.path, new Date(Date.now() - 1000))}`,
      ];
      for (const path of tampered) {
        expectError(await post(path, [{ content: Buffer.from('nope') }]), 403, 'workspace_auth_error');
        // Not even with a valid key next to it: the signature is what is checked.
        expectError(
          await post(path, [{ content: Buffer.from('nope') }], member),
          403,
          'workspace_auth_error',
        );
      }
      for (const sId of [file.sId, other.sId]) {
        await expectNothingStored(a, sId, 'created');
        expect((await row(sId)).version).toBe(1);
      }
    });

    it('fails a file uploaded with a key after its window closed', async () => {
      const file = await world.file<FileBody>(member, textFile(100));
      await t.dataSource.query(`UPDATE files SET expires_at = now() - interval '1 second' WHERE s_id = $1`, [
        file.sId,
      ]);
      expectError(
        await post(file.path, [{ content: Buffer.from('late') }], member),
        400,
        'invalid_request_error',
      );
      await expectNothingStored(a, file.sId, 'failed');
    });

    it('needs a key or a signature, and the write:file scope for a key', async () => {
      const file = await world.file<FileBody>(member, textFile(100));
      expectError(
        await post(file.path, [{ content: Buffer.from('x') }]),
        401,
        'missing_authorization_header_error',
      );
      const reader = await world.key(member, ['read:file']);
      expectError(
        await post(file.path, [{ content: Buffer.from('x') }], reader),
        403,
        'insufficient_key_scope',
      );
      await expectNothingStored(a, file.sId, 'created');
    });
  });

  describe('uploads in flight', () => {
    /** Starts a multipart upload of `declared` bytes and sends only `first` of them, on a raw socket. */
    async function startUpload(path: string, declared: number, first: Buffer) {
      const address = t.http.address() as AddressInfo;
      const boundary = 'inflight';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\n` +
          'Content-Type: text/plain\r\n\r\n',
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const req = httpRequest({
        host: '127.0.0.1',
        port: address.port,
        path,
        method: 'POST',
        headers: {
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': head.length + declared + tail.length,
        },
      });
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        req.once('error', reject);
        req.once('response', (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
      });
      req.write(Buffer.concat([head, first]));
      return { req, answer, finish: (rest: Buffer) => req.end(Buffer.concat([rest, tail])) };
    }

    const claimed = (sId: string) =>
      until(
        () =>
          t.dataSource.query<{ started: Date | null }[]>(
            'SELECT upload_started_at AS started FROM files WHERE s_id = $1',
            [sId],
          ),
        ([{ started }]) => started !== null,
      );

    beforeAll(() => new Promise<void>((resolve) => t.http.listen(0, '127.0.0.1', resolve)));

    it('refuses a second upload while the first is running, and lets the first finish', async () => {
      const file = await world.file<FileBody>(member, textFile(20));
      const first = await startUpload(local(file.uploadUrl!), 20, Buffer.from('0123456789'));
      await claimed(file.sId);
      const second = await post(local(file.uploadUrl!), [{ content: Buffer.from('x') }]);
      expectError(second, 400, 'invalid_request_error');
      expect(second.body.error.message).toMatch(/already being uploaded/);
      first.finish(Buffer.from('abcdefghij'));
      const answer = await first.answer;
      expect(answer.status).toBe(200);
      expect((await downloadBytes(member, file.path)).toString()).toBe('0123456789abcdefghij');
    });

    it('fails the file of an upload cut off midway, keeping nothing', async () => {
      const file = await world.file<FileBody>(member, textFile(1000));
      const upload = await startUpload(local(file.uploadUrl!), 1000, randomBytes(100));
      upload.answer.catch(() => undefined);
      await claimed(file.sId);
      upload.req.destroy();
      await until(
        () => row(file.sId),
        ({ status }) => status !== 'created',
      );
      await expectNothingStored(a, file.sId, 'failed');
    });
  });

  describe('reading and deleting', () => {
    it('refuses to download a file that is not ready, and an unknown action', async () => {
      const file = await world.file<FileBody>(member, textFile(100));
      expectError(await api(t, member).get(`${file.path}?action=download`), 400, 'invalid_request_error');
      expectError(await api(t, member).get(`${file.path}?action=delete`), 400, 'invalid_request_error');
      expectError(await api(t, member).get(`${filesPath()}/fil_0000000000`), 404, 'file_not_found');
    });

    it("does not let another workspace's key read, upload to or delete a file", async () => {
      const file = await world.file<FileBody>(member, textFile(100));
      const foreign = b.admin;
      expectError(await api(t, foreign).get(file.path), 401, 'workspace_auth_error');
      expectError(await api(t, foreign).get(`${file.path}?action=download`), 401, 'workspace_auth_error');
      expectError(
        await post(file.path, [{ content: Buffer.from('x') }], foreign),
        401,
        'workspace_auth_error',
      );
      expectError(await api(t, foreign).delete(file.path), 401, 'workspace_auth_error');
      // Through its own workspace's path, the file does not exist.
      const throughB = `${filesPath(b)}/${file.sId}`;
      expectError(await api(t, foreign).get(throughB), 404, 'file_not_found');
      expectError(await api(t, foreign).get(`${throughB}?action=download`), 404, 'file_not_found');
      expectError(await post(throughB, [{ content: Buffer.from('x') }], foreign), 404, 'file_not_found');
      expectError(await api(t, foreign).delete(throughB), 404, 'file_not_found');
      // Nor does a URL signed for one workspace open another's.
      const signed = new URL(file.uploadUrl!);
      expectError(
        await post(`${throughB}${signed.search}`, [{ content: Buffer.from('x') }]),
        403,
        'workspace_auth_error',
      );
      await expectNothingStored(a, file.sId, 'created');
    });

    it('lets the owner or an admin delete a file and its content, and no one else', async () => {
      const owned = await world.file<FileBody>(member, textFile(100));
      await post(owned.path, [{ content: Buffer.from('mine') }], member).expect(200);
      const other = await world.member(a.workspace, 'builder');
      expectError(await api(t, other).delete(owned.path), 403, 'workspace_auth_error');
      await api(t, member).delete(owned.path).expect(204);
      expect(await blobExists(a, owned.sId)).toBe(false);
      expectError(await api(t, member).get(owned.path), 404, 'file_not_found');
      expectError(await api(t, member).delete(owned.path), 404, 'file_not_found');

      const byAdmin = await world.file<FileBody>(member, textFile(100));
      await post(byAdmin.path, [{ content: Buffer.from('mine too') }], member).expect(200);
      await api(t, a.admin).delete(byAdmin.path).expect(204);
      expect(await blobExists(a, byAdmin.sId)).toBe(false);
      expect(await row(byAdmin.sId)).toBeUndefined();
    });

    it('serves a ready avatar to anyone at its public URL, and nothing else there', async () => {
      const avatar = await world.file<FileBody>(member, {
        contentType: 'image/png',
        fileName: 'me.png',
        fileSize: PNG.length,
        useCase: 'avatar',
      });
      expectError(await request(t.http).get(`${avatar.path}/public`), 404, 'file_not_found');
      const res = await post(local(avatar.uploadUrl!), [{ content: PNG }]).expect(200);
      expect(res.body).toMatchApiSchema('FileResponse');
      expect(res.body.file.publicUrl).toBe(`https://files.example.test${avatar.path}/public`);
      const image = await request(t.http)
        .get(local(res.body.file.publicUrl as string))
        .buffer(true)
        .parse(asBytes)
        .expect(200);
      expect(Buffer.compare(image.body as Buffer, PNG)).toBe(0);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.headers['content-disposition']).toMatch(/^inline; /);

      const document = await world.file<FileBody>(member, textFile(100));
      await post(document.path, [{ content: Buffer.from('private') }], member).expect(200);
      expectError(await request(t.http).get(`${document.path}/public`), 404, 'file_not_found');
      expectError(await request(t.http).get(`${filesPath(b)}/${avatar.sId}/public`), 404, 'file_not_found');
    });

    it('shows a folders document only to the members of its space', async () => {
      const { sId: spaceId } = await world.space(a.admin, { name: 'Legal', members: [a.admin] });
      const body = textFile(100, { useCase: 'folders_document', useCaseMetadata: { spaceId } });
      expectError(await api(t, member).post(filesPath()).send(body), 404, 'space_not_found');
      const file = await world.file<FileBody>(a.admin, body);
      expect(file.useCaseMetadata).toEqual({ spaceId });
      expectError(await api(t, member).get(file.path), 404, 'file_not_found');
      expectError(await post(file.path, [{ content: Buffer.from('x') }], member), 404, 'file_not_found');
      await post(local(file.uploadUrl!), [{ content: Buffer.from('contract') }]).expect(200);
      await api(t, a.admin).get(file.path).expect(200);
    });

    it('lets exactly the readers of its conversation read a conversation file, metadata and content', async () => {
      const { sId: spaceId } = await world.space(a.admin, { name: 'Board', members: [a.admin] });
      const { sId: conversationId } = await world.conversation(a.admin, { title: 'Board minutes', spaceId });
      expectError(
        await api(t, member).get(`/api/w/${a.workspace.sId}/assistant/conversations/${conversationId}`),
        403,
        'conversation_access_restricted',
      );
      const file = await world.file<FileBody>(
        a.admin,
        textFile(100, { useCaseMetadata: { conversationId } }),
      );
      await post(local(file.uploadUrl!), [{ content: Buffer.from('minutes') }]).expect(200);

      expectError(await api(t, member).get(file.path), 404, 'file_not_found');
      expectError(await api(t, member).get(`${file.path}?action=download`), 404, 'file_not_found');
      expectError(await api(t, member).delete(file.path), 404, 'file_not_found');
      const record = await api(t, a.admin).get(file.path).expect(200);
      expect(record.body).toMatchApiSchema('FileResponse');
      expect((await downloadBytes(a.admin, file.path)).toString()).toBe('minutes');

      await api(t, a.admin)
        .post(`/api/w/${a.workspace.sId}/spaces/${spaceId}/members/${member.user.sId}`)
        .expect(200);
      const now = await api(t, member).get(file.path).expect(200);
      expect(now.body).toMatchApiSchema('FileResponse');
      expect((await downloadBytes(member, file.path)).toString()).toBe('minutes');
    });
  });

  describe('the sweep of files never uploaded', () => {
    it('fails expired files once, however many processes sweep, and removes what they left', async () => {
      const other = await createTestApp({
        databaseUrl: t.config.databaseUrl!,
        env: { DATA_DIR: t.config.dataDir },
      });
      try {
        const waiting = await world.file<FileBody>(member, textFile(100));
        const expired = await Promise.all([1, 2, 3].map(() => world.file<FileBody>(member, textFile(100))));
        const running = await world.file<FileBody>(member, textFile(100));
        const stale = await world.file<FileBody>(member, textFile(100));
        await t.dataSource.query(
          `UPDATE files SET expires_at = now() - interval '1 minute' WHERE s_id = ANY($1)`,
          [[...expired, running, stale].map((f) => f.sId)],
        );
        await t.dataSource.query(`UPDATE files SET upload_started_at = now() WHERE s_id = $1`, [running.sId]);
        // An upload that claimed the file long ago and died after writing its content.
        await t.dataSource.query(
          `UPDATE files SET upload_started_at = now() - interval '2 hours' WHERE s_id = $1`,
          [stale.sId],
        );
        const staleBlob = blobPath(a, stale.sId);
        await import('node:fs/promises').then(async (fs) => {
          await fs.mkdir(join(staleBlob, '..'), { recursive: true });
          await fs.writeFile(staleBlob, 'partial');
        });

        const counts = await Promise.all([
          t.app.get(UploadLivenessService).sweepExpired(),
          other.app.get(UploadLivenessService).sweepExpired(),
        ]);
        expect(counts[0] + counts[1]).toBe(4);
        for (const file of [...expired, stale]) expect((await row(file.sId)).status).toBe('failed');
        expect((await row(running.sId)).status).toBe('created');
        expect((await row(waiting.sId)).status).toBe('created');
        expect(await blobExists(a, stale.sId)).toBe(false);
        const record = await api(t, member).get(expired[0].path).expect(200);
        expect(record.body).toMatchApiSchema('FileResponse');
        expect(record.body.file.status).toBe('failed');
        expect(await t.app.get(UploadLivenessService).sweepExpired()).toBe(0);
      } finally {
        await other.close();
      }
    });
  });

  describe('rate limit', () => {
    it('answers the creation over the per-workspace limit with 429 and Retry-After', async () => {
      const limited = await createTestApp({
        databaseUrl: t.config.databaseUrl!,
        env: { FILE_CREATE_RATE_PER_MINUTE: 3 },
      });
      try {
        const c = await world.workspace();
        for (let i = 0; i < 3; i++)
          await api(limited, c.admin).post(filesPath(c)).send(textFile()).expect(200);
        const before = await fileCount();
        const res = await api(limited, c.admin).post(filesPath(c)).send(textFile());
        expectError(res, 429, 'rate_limit_error');
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(20);
        expect(await fileCount()).toBe(before);
        // Another workspace has its own budget.
        await api(limited, a.admin).post(filesPath()).send(textFile()).expect(200);
      } finally {
        await limited.close();
      }
    });
  });

  it('documents the routes: the upload takes a key or a signed URL, the avatar route is open', () => {
    const paths = t.document.paths;
    const upload = paths['/api/w/{wId}/files/{fileId}'].post as unknown as Record<string, unknown>;
    expect(upload['x-required-scopes']).toEqual(['write:file']);
    expect(upload['x-signed-url']).toBe(true);
    expect(upload.security).toEqual([{ bearer: [] }]);
    expect(Object.keys((upload.requestBody as { content: object }).content)).toEqual(['multipart/form-data']);
    expect(paths['/api/w/{wId}/files'].post?.['x-required-scopes' as never]).toEqual(['write:file']);
    expect(paths['/api/w/{wId}/files/{fileId}/public'].get?.security).toBeUndefined();
  });
});
