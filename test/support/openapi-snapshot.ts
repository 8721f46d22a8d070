// Writes the served OpenAPI document, in canonical form, as the one the comparing test holds to
// (`npm run openapi:snapshot`): run it when a change to the contract is meant.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { canonicalDocument, OPENAPI_SNAPSHOT } from 'test/support/openapi-canonical';

const built = join(__dirname, '..', '..');
const document = JSON.parse(
  execFileSync(process.execPath, [join(built, 'src', 'cli.js'), 'openapi'], {
    env: { ...process.env, LOG_LEVEL: 'error' },
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  }),
) as OpenAPIObject;
writeFileSync(
  join(process.cwd(), OPENAPI_SNAPSHOT),
  `${JSON.stringify(canonicalDocument(document), null, 1)}\n`,
);
