import { docxText, pdfText } from 'src/modules/files/infrastructure/documents/document-text';
import {
  ParseLimitExceeded,
  type ParseOutcome,
  type ParseTask,
} from 'src/modules/files/infrastructure/documents/parse-task';

/** Runs in a parser thread (see `WorkerPoolDocumentParser`): one document, then the thread waits for the next. */
export async function parseDocument(task: ParseTask): Promise<ParseOutcome> {
  try {
    const text =
      task.kind === 'pdf'
        ? await pdfText(task.bytes, task.limit, task.pdfMaxPages)
        : await docxText(task.bytes, task.limit, task.docxMaxUnzippedBytes);
    return { text };
  } catch (error) {
    // An error's class does not cross threads: a limit is answered as a value.
    if (error instanceof ParseLimitExceeded) return { overLimit: error.message };
    throw error;
  }
}
