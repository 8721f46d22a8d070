import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTestApiDocument } from 'test/support/api-document';
import { canonicalDocument, differences, OPENAPI_SNAPSHOT } from 'test/support/openapi-canonical';

describe('the OpenAPI document', () => {
  it('is the agreed one but for the order of keys and required lists (schema names, fields, nullability)', () => {
    // On a failure meant as a change of contract: `npm run openapi:snapshot` rewrites the agreed one.
    const agreed: unknown = JSON.parse(readFileSync(join(process.cwd(), OPENAPI_SNAPSHOT), 'utf8'));
    expect(differences(agreed, canonicalDocument(readTestApiDocument()))).toEqual([]);
  });
});
