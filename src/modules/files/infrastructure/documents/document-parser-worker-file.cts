import { join } from 'node:path';

/**
 * Where the parser threads' module is, beside this one. A `.cts` file compiles to CommonJS in every
 * build, so `__dirname` is there both in the service's build and in the ES-module build of the specs.
 */
export const DOCUMENT_PARSER_WORKER_FILE = join(__dirname, 'document-parser.worker.js');
