import { describe, expect, it } from '@jest/globals';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UploadInspector } from 'src/modules/files/application/upload-inspector';

async function inspect(contentType: string, maxBytes: number, chunks: Buffer[]) {
  const inspector = new UploadInspector(contentType, maxBytes);
  const out: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out.push(chunk);
      done();
    },
  });
  try {
    await pipeline(Readable.from(chunks), inspector, sink);
    return { size: inspector.passedBytes, passed: Buffer.concat(out), error: null };
  } catch (error) {
    return { size: inspector.passedBytes, passed: Buffer.concat(out), error: error as { code?: string } };
  }
}

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('UploadInspector', () => {
  it('passes the content through unchanged and counts it', async () => {
    const chunks = [Buffer.from('hel'), Buffer.from('lo, '), Buffer.from('world, in pieces')];
    const result = await inspect('text/plain', 100, chunks);
    expect(result).toEqual({ size: 23, passed: Buffer.concat(chunks), error: null });
  });

  it('checks a signature split over several chunks', async () => {
    const chunks = [PNG_HEAD.subarray(0, 3), PNG_HEAD.subarray(3), Buffer.from('rest of the image')];
    const result = await inspect('image/png', 100, chunks);
    expect(result.error).toBeNull();
    expect(result.passed).toEqual(Buffer.concat(chunks));
  });

  it('lets no byte through when the signature is wrong', async () => {
    const result = await inspect('image/png', 100, [Buffer.from('GIF89a and more bytes')]);
    expect(result.error?.code).toBe('file_type_not_supported');
    expect(result.passed).toHaveLength(0);
  });

  it('checks a short content at its end', async () => {
    expect((await inspect('image/png', 100, [PNG_HEAD])).error).toBeNull();
    expect((await inspect('image/png', 100, [PNG_HEAD.subarray(0, 4)])).error?.code).toBe(
      'file_type_not_supported',
    );
  });

  it('stops at the first byte over the declared size', async () => {
    expect((await inspect('text/plain', 10, [Buffer.alloc(10, 'x')])).error).toBeNull();
    const result = await inspect('text/plain', 10, [
      Buffer.alloc(6, 'x'),
      Buffer.alloc(5, 'x'),
      Buffer.alloc(100, 'x'),
    ]);
    expect(result.error?.code).toBe('file_too_large');
    expect(result.size).toBe(11);
  });

  it('refuses an empty content', async () => {
    expect((await inspect('text/plain', 10, [])).error?.code).toBe('file_is_empty');
  });
});

describe('UploadInspector on text and JSON', () => {
  it('takes UTF-8 text whose characters are split across chunks', async () => {
    const text = Buffer.from('naïve café, 漢字 and 👍 in a CSV\n');
    const chunks = Array.from({ length: text.length }, (_, i) => text.subarray(i, i + 1));
    for (const contentType of ['text/plain', 'text/markdown', 'text/csv']) {
      const result = await inspect(contentType, 100, chunks);
      expect(result.error).toBeNull();
      expect(result.passed).toEqual(text);
    }
  });

  it('refuses declared text that is not UTF-8, or holds NUL bytes, or ends mid-character', async () => {
    for (const content of [
      Buffer.from([0x63, 0x61, 0x66, 0xe9]), // "café" in Latin-1
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('text\u0000with a NUL'),
      Buffer.from('👍').subarray(0, 3),
    ]) {
      const result = await inspect('text/plain', 100, [content]);
      expect(result.error?.code).toBe('file_type_not_supported');
    }
  });

  it('takes JSON documents split anywhere, and refuses what does not parse', async () => {
    const valid = [
      '{"a":[1,-2.5e+3,true,null,"x\\u00e9\\n"],"b":{}}',
      ' [] ',
      '"just a string"',
      '0',
      '-0.1E9',
    ];
    for (const document of valid) {
      const bytes = Buffer.from(document);
      const chunks = [bytes.subarray(0, 3), bytes.subarray(3, 7), bytes.subarray(7)].filter((c) => c.length);
      expect({ document, error: (await inspect('application/json', 100, chunks)).error }).toEqual({
        document,
        error: null,
      });
    }
    const invalid = [
      '{"a":1,}',
      '{a:1}',
      '[1 2]',
      '{"a":1',
      '01',
      '1.',
      '-',
      'tru',
      '[1]]',
      '{"a":1}x',
      '"\\x"',
      "'a'",
      '[}',
    ];
    for (const document of invalid) {
      expect(() => {
        JSON.parse(document);
      }).toThrow();
      const result = await inspect('application/json', 100, [Buffer.from(document)]);
      expect({ document, code: result.error?.code }).toEqual({ document, code: 'file_type_not_supported' });
    }
  });
});
