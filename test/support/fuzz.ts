import type { ParameterObject, SchemaObject } from '@nestjs/swagger';
import fc from 'fast-check';

/** The OpenAPI 3.0 schema subset the document uses, `$ref`s included. */
export type Schema = SchemaObject & { $ref?: string };
export type Schemas = Record<string, Schema>;

/** Follows `$ref`s and single-member `allOf`s (how Nest documents a described reference). */
export function resolveSchema(schema: Schema, schemas: Schemas): Schema {
  if (schema.$ref) return resolveSchema(schemas[schema.$ref.replace('#/components/schemas/', '')], schemas);
  if (schema.allOf?.length === 1) {
    const { allOf, ...rest } = schema;
    return { ...resolveSchema(allOf[0], schemas), ...rest };
  }
  return schema;
}

const NAME_LIKE = /^[a-z][a-z0-9-]{0,19}$/;

/**
 * What the schema does not say but a valid body needs, guessed from property names: real ids of
 * the workspace for `…Id`/`…Ids`, and plausible emails, URLs and time zones. Without them nearly
 * every base body would fail validation on one field and hide the paths behind it.
 */
export interface ValueHints {
  ids: string[];
}

function hinted(key: string, hints: ValueHints): fc.Arbitrary<string> | null {
  if (/(^sId|Ids?)$/.test(key) && hints.ids.length > 0) return fc.constantFrom(...hints.ids);
  if (/email/i.test(key)) return fc.constantFrom('ada@example.com', 'Grace.Hopper@example.org');
  if (/url/i.test(key)) return fc.constantFrom('https://example.com/a.png', 'https://mcp.example.com/sse');
  if (/timezone/i.test(key)) return fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York');
  return null;
}

/** Values the schema allows (as far as it says): the starting point of every mutation. */
export function schemaValue(
  schema: Schema,
  schemas: Schemas,
  hints: ValueHints,
  key = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const resolved = resolveSchema(schema, schemas);
  const value = plainValue(resolved, schemas, hints, key, depth);
  return resolved.nullable
    ? fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: value })
    : value;
}

function plainValue(
  schema: Schema,
  schemas: Schemas,
  hints: ValueHints,
  key: string,
  depth: number,
): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (depth > 8) return fc.constant({});
  if (schema.properties || schema.type === 'object') {
    const properties = Object.entries(schema.properties ?? {}).map(
      ([name, child]) => [name, schemaValue(child as Schema, schemas, hints, name, depth + 1)] as const,
    );
    return fc.record(Object.fromEntries(properties), { requiredKeys: schema.required ?? [] });
  }
  switch (schema.type) {
    case 'string': {
      const max = Math.min(schema.maxLength ?? 30, 30);
      const strings = [
        { weight: 3, arbitrary: fc.stringMatching(NAME_LIKE) },
        { weight: 1, arbitrary: fc.string({ minLength: schema.minLength ?? 0, maxLength: max }) },
      ];
      const guess = hinted(key, hints);
      if (guess) return fc.oneof({ weight: 12, arbitrary: guess }, ...strings);
      return schema.example === undefined
        ? fc.oneof(...strings)
        : fc.oneof({ weight: 4, arbitrary: fc.constant(schema.example) }, ...strings);
    }
    case 'number':
    case 'integer': {
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? 1000;
      const integers = fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
      return schema.type === 'integer'
        ? integers
        : fc.oneof(integers, fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schemaValue((schema.items ?? {}) as Schema, schemas, hints, key, depth + 1), {
        maxLength: 3,
      });
    case undefined:
    default:
      // No type: anything JSON.
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value wrapped in `depth` arrays or objects, written as text (JSON.stringify would recurse that deep). */
export class Nested {
  constructor(
    readonly depth: number,
    readonly shape: 'array' | 'object',
    readonly inner: unknown,
  ) {}
}

/** Strings that break naive handling: NUL, lone surrogates, BOM, bidi overrides, combining marks, quotes. */
const TRICKY_PARTS = [
  '\u0000',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\ufeff',
  '\ufffe',
  '\uffff',
  '\u202e',
  '\u0301',
  '\u{1f4a5}',
  '\r\n',
  '\\',
  '"',
  '%00',
  '%',
  '{{x}}',
  "'; DROP TABLE users; --",
  'a',
];

export const unicodeString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.array(fc.constantFrom(...TRICKY_PARTS), { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')),
);

/**
 * Mostly up to 200,000 characters of any kind (under the 1 MB body limit, or close to it); one in
 * ten just over the limit, in ASCII, since the server reads a refused body to its end.
 */
export const hugeString = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .record({
        unit: fc.oneof(
          fc.constant('x'),
          unicodeString.filter((text) => text.length > 0),
        ),
        length: fc.integer({ min: 1_000, max: 200_000 }),
      })
      .map(({ unit, length }) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length)),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1_050_000, max: 1_150_000 }).map((length) => 'x'.repeat(length)),
  },
);

export const outOfRangeNumber = fc.oneof(
  fc.constantFrom(
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    -Number.MAX_SAFE_INTEGER - 2,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 63,
    -1,
    -0.5,
    0.5,
    1.5,
    64.5,
    101,
    1e21,
    5e-324,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const wrongType = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.jsonValue({ maxDepth: 3 }),
);

const nestingDepth = fc.oneof(
  fc.integer({ min: 2, max: 100 }),
  fc.integer({ min: 100, max: 10_000 }),
  fc.integer({ min: 10_000, max: 400_000 }),
);

export type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'remove'; at: number }
  | { kind: 'addKey'; at: number; key: string; value: unknown }
  | { kind: 'nest'; at: number; depth: number; shape: 'array' | 'object' }
  | { kind: 'resize'; at: number; length: number }
  | { kind: 'taint'; at: number; text: string };

const at = fc.nat();

/** One change to a body: wrong types, missing and extra keys, huge or odd strings, deep nesting, odd numbers, odd lengths. */
export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('taint' as const), at, text: fc.constantFrom(...TRICKY_PARTS) }),
  fc.record({ kind: fc.constant('replace' as const), at, value: wrongType }),
  fc.record({ kind: fc.constant('replace' as const), at, value: unicodeString }),
  fc.record({ kind: fc.constant('replace' as const), at, value: hugeString }),
  fc.record({ kind: fc.constant('replace' as const), at, value: outOfRangeNumber }),
  fc.record({ kind: fc.constant('remove' as const), at }),
  fc.record({
    kind: fc.constant('addKey' as const),
    at,
    key: fc.oneof(
      fc.string({ maxLength: 12 }),
      unicodeString,
      fc.constantFrom('__proto__', 'constructor', 'id'),
    ),
    value: wrongType,
  }),
  fc.record({
    kind: fc.constant('nest' as const),
    at,
    depth: nestingDepth,
    shape: fc.constantFrom('array', 'object'),
  }),
  fc.record({
    kind: fc.constant('resize' as const),
    at,
    length: fc.oneof(
      fc.constant(0),
      fc.integer({ min: 2, max: 2_000 }),
      fc.integer({ min: 10_000, max: 40_000 }),
    ),
  }),
);

type Path = (string | number)[];

/** About the 1 MB body limit: a resized array may reach it, never exceed it by much. */
const RESIZE_MAX_CHARS = 1_200_000;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Nested);
}

function nodes(value: unknown, path: Path = [], out: { path: Path; value: unknown }[] = []) {
  out.push({ path, value });
  if (Array.isArray(value)) value.forEach((item, index) => nodes(item, [...path, index], out));
  else if (isPlainObject(value))
    for (const [key, child] of Object.entries(value)) nodes(child, [...path, key], out);
  return out;
}

/** Marks a node to drop from its parent. */
const REMOVE = Symbol('remove');

/** A copy with one own key set: a plain assignment of "__proto__" would set the prototype instead. */
function withKey(object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...object };
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** `root` with the node at `path` replaced by `update(node)`, or dropped when that answers REMOVE. */
function updateAt(root: unknown, path: Path, update: (node: unknown) => unknown): unknown {
  if (path.length === 0) {
    const next = update(root);
    return next === REMOVE ? undefined : next;
  }
  const [head, ...rest] = path;
  const container = root as Record<string | number, unknown>;
  const next = rest.length === 0 ? update(container[head]) : updateAt(container[head], rest, update);
  if (Array.isArray(root)) {
    const copy = [...(root as unknown[])];
    if (next === REMOVE) copy.splice(head as number, 1);
    else copy[head as number] = next;
    return copy;
  }
  if (next !== REMOVE) return withKey(container, String(head), next);
  const copy = { ...container };
  delete copy[head];
  return copy;
}

export function applyMutation(root: unknown, change: Mutation): unknown {
  const all = nodes(root);
  const target = all[change.at % all.length];
  switch (change.kind) {
    case 'replace':
      return updateAt(root, target.path, () => change.value);
    case 'remove':
      return updateAt(root, target.path, () => REMOVE);
    case 'addKey': {
      const objects = all.filter((node) => isPlainObject(node.value));
      if (objects.length === 0) return withKey({}, change.key, change.value);
      const object = objects[change.at % objects.length];
      return updateAt(root, object.path, (node) =>
        withKey(node as Record<string, unknown>, change.key, change.value),
      );
    }
    case 'nest':
      return updateAt(root, target.path, (node) => new Nested(change.depth, change.shape, node));
    case 'taint': {
      // Odd characters inside an otherwise valid string reach deeper than a wholly odd value.
      const strings = all.filter((node) => typeof node.value === 'string');
      if (strings.length === 0) return root;
      const { path, value } = strings[change.at % strings.length];
      const text = value as string;
      const cut = change.at % (text.length + 1);
      return updateAt(root, path, () => text.slice(0, cut) + change.text + text.slice(cut));
    }
    case 'resize':
      return updateAt(root, target.path, (node) => {
        const items: unknown[] = Array.isArray(node) ? node : [node];
        // Copies of big items would build bodies of gigabytes: keep the array near the body limit.
        const itemSize =
          items.reduce<number>((max, item) => Math.max(max, toJsonText(item)?.length ?? 4), 4) + 1;
        const length = Math.min(change.length, Math.ceil(RESIZE_MAX_CHARS / itemSize));
        return Array.from({ length }, (_, index) => items[index % Math.max(items.length, 1)] ?? null);
      });
  }
}

/** JSON text of a value that may hold `Nested` markers; undefined stays undefined (no body). */
export function toJsonText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const nested: Nested[] = [];
  const marker = `\u0001nested-${Math.random().toString(36).slice(2)}-`;
  const text = JSON.stringify(value, (_key, node: unknown) =>
    node instanceof Nested ? `${marker}${nested.push(node) - 1}` : node,
  );
  const escaped = JSON.stringify(marker).slice(1, -1);
  return text.replace(
    new RegExp(`"${escaped.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}(\\d+)"`, 'g'),
    (_, index: string) => {
      const { depth, shape, inner } = nested[Number(index)];
      const innerText = toJsonText(inner) ?? 'null';
      return shape === 'array'
        ? '['.repeat(depth) + innerText + ']'.repeat(depth)
        : '{"a":'.repeat(depth) + innerText + '}'.repeat(depth);
    },
  );
}

/** A readable summary of a value: long strings and arrays cut, nesting counted. */
export function preview(value: unknown): string {
  if (value === undefined) return '(no body)';
  return JSON.stringify(value, (_key, node: unknown) => {
    if (node instanceof Nested) return `<${preview(node.inner)} inside ${node.depth} nested ${node.shape}s>`;
    if (typeof node === 'string' && node.length > 80) return `${node.slice(0, 40)}…(${node.length} chars)`;
    if (Array.isArray(node) && node.length > 6) {
      return [...(node as unknown[]).slice(0, 3), `…(${node.length} items)`];
    }
    return node;
  });
}

export type RawTwist =
  { kind: 'truncate'; at: number } | { kind: 'invalidUtf8'; at: number } | { kind: 'bom' };

export const rawTwist: fc.Arbitrary<RawTwist> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at }),
  fc.record({ kind: fc.constant('invalidUtf8' as const), at }),
  fc.record({ kind: fc.constant('bom' as const) }),
);

export function applyRawTwist(text: string, twist: RawTwist): Buffer {
  switch (twist.kind) {
    case 'truncate':
      return Buffer.from(text.slice(0, twist.at % Math.max(text.length, 1)));
    case 'invalidUtf8': {
      const bytes = Buffer.from(text);
      const cut = twist.at % Math.max(bytes.length, 1);
      return Buffer.concat([
        bytes.subarray(0, cut),
        Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
        bytes.subarray(cut),
      ]);
    }
    case 'bom':
      return Buffer.from(`\ufeff${text}`);
  }
}

export const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/merge-patch+json',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'text/plain',
      'application/x-www-form-urlencoded',
    ),
  },
);

/** A query parameter value as text, the way a client would write the schema's value. */
export function queryValue(
  parameter: ParameterObject,
  schemas: Schemas,
  hints: ValueHints,
): fc.Arbitrary<string> {
  return schemaValue((parameter.schema ?? {}) as Schema, schemas, hints, parameter.name).map((value) =>
    typeof value === 'string' ? value : JSON.stringify(value),
  );
}

/** Query values no client should send: wrong types, odd numbers, odd text, mostly-legal to header-busting lengths. */
export const wrongQueryValue = fc.oneof(
  fc.constantFrom(
    'abc',
    '-1',
    '0',
    '1.5',
    '1e400',
    'NaN',
    'Infinity',
    '0x10',
    ' 5',
    '',
    'true',
    '[]',
    '{}',
    '-0',
    '9007199254740993',
  ),
  unicodeString,
  fc
    .oneof(
      { weight: 9, arbitrary: fc.integer({ min: 100, max: 8_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: 20_000, max: 40_000 }) },
    )
    .map((length) => 'q'.repeat(length)),
);

export type QueryMutation =
  | { kind: 'set'; at: number; value: string }
  | { kind: 'remove'; at: number }
  | { kind: 'add'; name: string; value: string }
  | { kind: 'repeat'; at: number; value: string }
  | { kind: 'bracket'; at: number; suffix: string }
  | { kind: 'brokenEscape'; at: number; escape: string };

export const queryMutation: fc.Arbitrary<QueryMutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at, value: wrongQueryValue }),
  fc.record({ kind: fc.constant('remove' as const), at }),
  fc.record({
    kind: fc.constant('add' as const),
    name: fc.oneof(fc.string({ maxLength: 10 }), unicodeString),
    value: wrongQueryValue,
  }),
  fc.record({ kind: fc.constant('repeat' as const), at, value: wrongQueryValue }),
  fc.record({
    kind: fc.constant('bracket' as const),
    at,
    suffix: fc.constantFrom('[]', '[a]', '[0]', '[__proto__]', '.x'),
  }),
  fc.record({
    kind: fc.constant('brokenEscape' as const),
    at,
    escape: fc.constantFrom('%', '%z', '%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AE', '%00'),
  }),
);

/** Each item is `name=value` text already encoded, so broken escapes survive. */
export function applyQueryMutation(pairs: [string, string][], change: QueryMutation): [string, string][] {
  const index = pairs.length === 0 ? -1 : ('at' in change ? change.at : 0) % pairs.length;
  switch (change.kind) {
    case 'set':
      return index < 0
        ? pairs
        : pairs.map((pair, i) => (i === index ? [pair[0], encodeQuery(change.value)] : pair));
    case 'remove':
      return pairs.filter((_, i) => i !== index);
    case 'add':
      return [...pairs, [encodeQuery(change.name), encodeQuery(change.value)]];
    case 'repeat':
      return index < 0 ? pairs : [...pairs, [pairs[index][0], encodeQuery(change.value)]];
    case 'bracket':
      return pairs.map((pair, i) =>
        i === index ? [`${pair[0]}${encodeQuery(change.suffix)}`, pair[1]] : pair,
      );
    case 'brokenEscape':
      return index < 0
        ? [['x', change.escape]]
        : pairs.map((pair, i) => (i === index ? [pair[0], pair[1] + change.escape] : pair));
  }
}

/** encodeURIComponent, except that a lone surrogate is written as the bytes a careless client would send. */
export function encodeQuery(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(text[i]);
    }
  }
  return out;
}
