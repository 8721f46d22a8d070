import { docxText, pdfText } from 'src/modules/files/infrastructure/documents/document-text';
import {
  ParseLimitExceeded,
  type ParseOutcome,
  type ParserMessage,
  type ParserReply,
  type ParseTask,
} from 'src/modules/files/infrastructure/documents/parse-task';

/**
 * A parser process (see `ParserProcessPool`): reads one document at a time, sent over its IPC
 * channel as a task, the bytes in chunks and their end, and answers its outcome. It ends with its
 * channel, so it never outlives the service.
 */
async function parse(task: ParseTask, bytes: Uint8Array): Promise<ParseOutcome> {
  try {
    const text =
      task.kind === 'pdf'
        ? await pdfText(bytes, task.limit, task.pdfMaxPages)
        : await docxText(bytes, task.limit, task.docxMaxUnzippedBytes);
    return { text };
  } catch (error) {
    if (error instanceof ParseLimitExceeded) return { overLimit: error.message };
    return { unreadable: error instanceof Error ? error.message : String(error) };
  }
}

/** The chunks in one plain `Uint8Array` (pdf.js refuses a `Buffer`). */
function concat(chunks: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

function serve(reply: (message: ParserReply) => void): void {
  let task: ParseTask | null = null;
  let chunks: Uint8Array[] = [];
  process.on('message', (message: ParserMessage) => {
    if ('task' in message) {
      task = message.task;
      chunks = [];
    } else if ('chunk' in message) {
      chunks.push(message.chunk);
    } else if (task) {
      const bytes = concat(chunks);
      chunks = [];
      void parse(task, bytes).then((outcome) => reply({ outcome }));
    }
  });
  process.on('disconnect', () => process.exit(0));
  reply({ ready: true });
}

const send = process.send?.bind(process);
if (!send)
  throw new Error('The document parser runs as a child process of the service, with an IPC channel.');
serve((message) => send(message));
