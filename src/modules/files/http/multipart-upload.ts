import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import type { UploadSource } from 'src/modules/files/application/upload-source';

export const FILE_PART = 'file';
const EXPECTED = `The body must be multipart/form-data with exactly one part, a file named "${FILE_PART}"`;

/**
 * The `file` part of a multipart/form-data request, streamed with busboy: never buffered whole,
 * and capped by busboy's own limits. The stream ends only once the whole form has been read, so a
 * second part or a broken body after the file fails it instead of letting it pass as complete.
 */
export class MultipartUpload implements UploadSource {
  constructor(private readonly request: IncomingMessage) {}

  open(maxBytes: number): Promise<Readable> {
    const request = this.request;
    return new Promise((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: request.headers,
          // One extra byte lets the reader see an oversize; anything past it is discarded.
          limits: { files: 1, fields: 0, fileSize: maxBytes + 1, headerPairs: 20 },
        });
      } catch {
        reject(new InvalidRequestError(`${EXPECTED}.`));
        return;
      }
      let file: PassThrough | null = null;
      let settled = false;

      const fail = (message: string) => {
        if (settled) return;
        settled = true;
        const error = new InvalidRequestError(message);
        // The rest of the body is read and dropped, so the answer reaches the client.
        request.unpipe(parser);
        request.resume();
        if (file) file.destroy(error);
        else reject(error);
      };

      parser.on('file', (name, stream) => {
        if (name !== FILE_PART) {
          stream.resume();
          fail(`${EXPECTED}; got a file named "${name}".`);
          return;
        }
        file = new PassThrough();
        // The failure may come before the reader attaches; it still meets it, through its own listeners.
        file.on('error', () => undefined);
        stream.pipe(file, { end: false });
        resolve(file);
      });
      parser.on('fieldsLimit', () => fail(`${EXPECTED}; got a text field.`));
      parser.on('filesLimit', () => fail(`${EXPECTED}; got several files.`));
      parser.on('error', (error: Error) => fail(`${EXPECTED}: ${error.message}.`));
      // busboy closes once the whole form is read and every file stream has handed on its bytes.
      parser.on('close', () => {
        if (!file) return fail(`${EXPECTED}; the part "${FILE_PART}" is missing.`);
        if (settled) return;
        settled = true;
        file.end();
      });
      const interrupted = () => fail('The upload was interrupted before the end of the request.');
      request.on('error', interrupted);
      request.on('close', () => {
        if (!request.complete) interrupted();
      });
      request.pipe(parser);
    });
  }
}
