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
    expect((await inspect('text/plain', 10, [Buffer.alloc(10)])).error).toBeNull();
    const result = await inspect('text/plain', 10, [Buffer.alloc(6), Buffer.alloc(5), Buffer.alloc(100)]);
    expect(result.error?.code).toBe('file_too_large');
    expect(result.size).toBe(11);
  });

  it('refuses an empty content', async () => {
    expect((await inspect('text/plain', 10, [])).error?.code).toBe('file_is_empty');
  });
});
