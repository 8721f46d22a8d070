import type { OpenAPIObject } from '@nestjs/swagger';

/** Where the document as it was agreed is kept; `npm run openapi:snapshot` rewrites it. */
export const OPENAPI_SNAPSHOT = 'test/architecture/openapi-document.json';

/**
 * The document without the order of its keys and of its `required` and `enum` lists, which say
 * nothing to a client: two documents that differ only there are the same contract. (The Swagger
 * plugin lists a union's literals in the order the compiler met them, which moves with imports.)
 */
export function canonicalDocument(document: OpenAPIObject): unknown {
  return canonical(document);
}

function canonical(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(canonical);
  if (!node || typeof node !== 'object') return node;
  const entries = Object.entries(node as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return Object.fromEntries(
    entries.map(([key, value]) => [
      key,
      (key === 'required' || key === 'enum') && Array.isArray(value) ? sortedValues(value) : canonical(value),
    ]),
  );
}

function sortedValues(values: unknown[]): unknown[] {
  return values
    .map((value) => ({ value, key: JSON.stringify(value) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ value }) => value);
}

/** The JSON paths at which two canonical documents differ, at most `limit` of them. */
export function differences(expected: unknown, actual: unknown, limit = 20, path = '$'): string[] {
  if (Object.is(expected, actual)) return [];
  const bothObjects =
    expected &&
    actual &&
    typeof expected === 'object' &&
    typeof actual === 'object' &&
    Array.isArray(expected) === Array.isArray(actual);
  if (!bothObjects) return [`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
  const found: string[] = [];
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  for (const key of keys) {
    if (found.length >= limit) break;
    const at = Array.isArray(expected) ? `${path}[${key}]` : `${path}.${key}`;
    found.push(
      ...differences(
        (expected as Record<string, unknown>)[key],
        (actual as Record<string, unknown>)[key],
        limit - found.length,
        at,
      ),
    );
  }
  return found;
}
