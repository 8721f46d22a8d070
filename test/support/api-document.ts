import type { OpenAPIObject } from '@nestjs/swagger';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { TEST_ENV } from 'test/support/test-database';

type Schema = Record<string, unknown>;

let current: { document: OpenAPIObject; ajv: Ajv } | null = null;

/**
 * OpenAPI 3.0 schemas as JSON Schema: `nullable` becomes a null alternative, and every object
 * that lists its properties refuses others, so "valid" also means "exactly these field names".
 */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const schema: Schema = {};
  for (const [key, value] of Object.entries(node as Schema)) {
    schema[key] = key === 'properties' ? mapValues(value as Schema) : toJsonSchema(value);
  }
  if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
  if (schema.nullable === true) {
    delete schema.nullable;
    const composed = ['allOf', 'oneOf', 'anyOf', '$ref'].some((keyword) => keyword in schema);
    if (typeof schema.type === 'string' && !composed) {
      schema.type = [schema.type, 'null'];
      if (Array.isArray(schema.enum)) schema.enum = [...(schema.enum as unknown[]), null];
    } else {
      return { anyOf: [schema, { type: 'null' }] };
    }
  }
  return schema;
}

function mapValues(properties: Schema): Schema {
  return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, toJsonSchema(value)]));
}

export function setApiDocument(document: OpenAPIObject): void {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({
    $id: 'openapi',
    components: { schemas: toJsonSchema(document.components?.schemas ?? {}) },
  });
  current = { document, ajv };
}

/** The document the global setup wrote (the served one), for specs that declare tests from it. */
export function readTestApiDocument(): OpenAPIObject {
  const file = process.env[TEST_ENV.openApiDocument];
  if (!file)
    throw new Error(`${TEST_ENV.openApiDocument} is not set: run e2e tests through their Jest config.`);
  return JSON.parse(readFileSync(file, 'utf8')) as OpenAPIObject;
}

export function apiDocument(): OpenAPIObject {
  if (!current) throw new Error('No API document: create the test app first.');
  return current.document;
}

export function apiSchemaValidator(name: string): ValidateFunction {
  if (!current) throw new Error('No API document: create the test app first.');
  const validate = current.ajv.getSchema(`openapi#/components/schemas/${name}`);
  if (!validate) throw new Error(`The OpenAPI document has no schema named "${name}".`);
  return validate;
}
