import { Transform, TransformCallback } from 'node:stream';
import { SIGNATURE_BYTES, matchesSignature } from 'src/modules/files/domain/content-signature';
import { FileIsEmpty, FileTooLarge, FileTypeNotSupported } from 'src/modules/files/domain/files.errors';
import { TextContentCheck, textContentCheck } from 'src/modules/files/domain/text-content';
import { collectYoungGeneration } from 'src/platform/memory/minor-gc';

/** The read buffers an upload has passed on are collected every this many bytes. */
const COLLECT_EVERY_BYTES = 16 * 1024 * 1024;

/**
 * Passes an upload through while checking it: at most `maxBytes`, not empty, (for the binary
 * types that have one) starting with its type's signature, and (for text and JSON) text of its
 * type. No byte goes on before the signature has been checked, so content of another type never
 * reaches storage; text found invalid later fails the stream, and storage then keeps nothing.
 */
export class UploadInspector extends Transform {
  private received = 0;
  private head: Buffer[] = [];
  private headLength = 0;
  private checked = false;
  private readonly text: TextContentCheck | null;

  constructor(
    private readonly contentType: string,
    private readonly maxBytes: number,
  ) {
    super();
    this.text = textContentCheck(contentType);
  }

  /** How many bytes went through (not `size`: stream consumers read that as the total to come). */
  get passedBytes(): number {
    return this.received;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const before = this.received;
    this.received += chunk.length;
    if (Math.floor(this.received / COLLECT_EVERY_BYTES) > Math.floor(before / COLLECT_EVERY_BYTES)) {
      collectYoungGeneration();
    }
    if (this.received > this.maxBytes) {
      done(
        new FileTooLarge(
          `The file has more bytes than the ${this.maxBytes} declared: create the file with its real size.`,
        ),
      );
      return;
    }
    const invalidText = this.text?.push(chunk);
    if (invalidText) {
      done(new FileTypeNotSupported(invalidText));
      return;
    }
    if (this.checked) {
      done(null, chunk);
      return;
    }
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < SIGNATURE_BYTES) {
      done();
      return;
    }
    done(this.release());
  }

  override _flush(done: TransformCallback): void {
    if (this.received === 0) {
      done(new FileIsEmpty());
      return;
    }
    const invalidText = this.text?.end();
    if (invalidText) {
      done(new FileTypeNotSupported(invalidText));
      return;
    }
    done(this.checked ? null : this.release());
  }

  /** Checks the signature on the bytes held back, then lets them through. */
  private release(): Error | null {
    const head = Buffer.concat(this.head);
    this.head = [];
    this.checked = true;
    if (!matchesSignature(this.contentType, head.subarray(0, SIGNATURE_BYTES))) {
      return new FileTypeNotSupported(`The content does not look like ${this.contentType}.`);
    }
    this.push(head);
    return null;
  }
}
