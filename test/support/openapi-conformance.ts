import { type INestApplication, type Type, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject, ParameterObject, ReferenceObject, ResponseObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import { SCOPES } from 'src/platform/auth/scopes';
import { ApiOperation, apiOperations } from 'test/support/api-operations';

const ERROR_ENVELOPE_REF = '#/components/schemas/ErrorResponse';

function isReference(value: unknown): value is ReferenceObject {
  return typeof value === 'object' && value !== null && '$ref' in value;
}

function parametersOf(op: ApiOperation): ParameterObject[] {
  return (op.operation.parameters ?? []).filter((p): p is ParameterObject => !isReference(p));
}

function usesErrorEnvelope(response: ResponseObject | ReferenceObject | undefined): boolean {
  if (!response || isReference(response)) return false;
  const schema = response.content?.['application/json']?.schema;
  return isReference(schema) && schema.$ref === ERROR_ENVELOPE_REF;
}

/**
 * What one operation lacks for a reader of the document or for Swagger UI's "Try it out": an
 * empty list when it has a summary and a description, declares exactly the parameters of its
 * path, states its scopes unless public, and documents its errors with the envelope.
 */
export function operationProblems(op: ApiOperation, tagDescriptions: Map<string, string>): string[] {
  const problems: string[] = [];
  const { operation } = op;
  if (!operation.summary?.trim()) problems.push('no summary');
  if (!operation.description?.trim()) problems.push('no description');
  if (!operation.operationId) problems.push('no operationId');

  const declared = parametersOf(op)
    .filter((p) => p.in === 'path')
    .map((p) => p.name);
  for (const name of op.pathParameters) {
    const count = declared.filter((d) => d === name).length;
    if (count === 0) problems.push(`path parameter {${name}} not declared`);
    if (count > 1) problems.push(`path parameter {${name}} declared ${count} times`);
  }
  for (const name of new Set(declared)) {
    if (!op.pathParameters.includes(name)) problems.push(`declares path parameter "${name}" not in its path`);
  }
  for (const p of parametersOf(op).filter((p) => p.in === 'path' && p.required !== true)) {
    problems.push(`path parameter {${p.name}} not required`);
  }

  const scopes = (operation as unknown as Record<string, unknown>)['x-required-scopes'];
  if (!op.isPublic) {
    // An empty list is a statement too: any valid key of the workspace (`/me`).
    if (!Array.isArray(scopes)) problems.push('no x-required-scopes');
    else {
      for (const scope of scopes) {
        if (!(SCOPES as readonly unknown[]).includes(scope)) problems.push(`unknown scope "${scope}"`);
      }
    }
  }

  const responses = Object.entries(operation.responses ?? {});
  const clientErrors = responses.filter(([status]) => /^4\d\d$/.test(status));
  for (const [status, response] of clientErrors) {
    if (!usesErrorEnvelope(response)) problems.push(`${status} answer without the error envelope schema`);
  }
  // A public route that takes nothing (the health checks) has no client error to document.
  const takesInput = op.pathParameters.length > 0 || parametersOf(op).length > 0 || !!operation.requestBody;
  if (clientErrors.length === 0 && (!op.isPublic || takesInput)) problems.push('no 4xx error response');

  const tags = operation.tags ?? [];
  if (tags.length === 0) problems.push('no tag');
  for (const tag of tags) {
    if (!tagDescriptions.get(tag)?.trim()) problems.push(`tag "${tag}" has no description`);
  }
  return problems;
}

/** Every operation of the document that lacks something, as `GET /path: what it lacks`. */
export function documentProblems(document: OpenAPIObject): string[] {
  const tagDescriptions = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description ?? '']));
  const operations = apiOperations(document);
  const problems = operations.flatMap((op) => {
    const lacks = operationProblems(op, tagDescriptions);
    return lacks.length > 0 ? [`${op.name}: ${lacks.join('; ')}`] : [];
  });
  const seen = new Map<string, string>();
  for (const op of operations) {
    const id = op.operation.operationId;
    if (!id) continue;
    const first = seen.get(id);
    if (first) problems.push(`${op.name}: operationId "${id}" already used by ${first}`);
    else seen.set(id, op.name);
  }
  return problems;
}

/** `$ref`s of the document that point at nothing (the OpenAPI schema does not check them). */
export function danglingReferences(document: OpenAPIObject): string[] {
  const dangling = new Set<string>();
  const resolves = (ref: string) =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>(
        (node, part) =>
          node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined,
        document,
      ) !== undefined;
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && !resolves(value)) dangling.add(value);
        else walk(value);
      }
    }
  };
  walk(document);
  return [...dangling];
}

/** A route as Nest serves it: the parameters its `@Param()` and `@Query()` DTOs validate. */
export interface ServedRoute {
  name: string;
  pathParameters: string[];
  queryParameters: string[];
}

function validatedProperties(type: unknown): string[] {
  if (typeof type !== 'function') return [];
  const metadata = getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))];
}

function joinPath(...parts: string[]): string {
  const path = parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .map((segment) => segment.replace(/^:(.+)$/, '{$1}'))
    .join('/');
  return `/${path}`;
}

/**
 * Every route of the application's controllers with the names its DTOs validate: what a client
 * must be able to send, compared with what the document declares.
 */
export function servedRoutes(app: INestApplication): ServedRoute[] {
  const routes: ServedRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      const base: unknown = Reflect.getMetadata(PATH_METADATA, controller) ?? '';
      for (const key of Object.getOwnPropertyNames(controller.prototype)) {
        const handler: unknown = controller.prototype[key];
        if (key === 'constructor' || typeof handler !== 'function') continue;
        const path: unknown = Reflect.getMetadata(PATH_METADATA, handler);
        const method: unknown = Reflect.getMetadata(METHOD_METADATA, handler);
        if (path === undefined || typeof method !== 'number') continue;
        const types: unknown[] = Reflect.getMetadata('design:paramtypes', controller.prototype, key) ?? [];
        const args: Record<string, { index: number; data?: unknown }> =
          Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, key) ?? {};
        const named = (kind: RouteParamtypes) =>
          Object.entries(args)
            .filter(([argKey]) => argKey.startsWith(`${kind}:`))
            .flatMap(([, arg]) =>
              typeof arg.data === 'string' ? [arg.data] : validatedProperties(types[arg.index]),
            );
        for (const routePath of (Array.isArray(path) ? path : [path]) as string[]) {
          for (const basePath of (Array.isArray(base) ? base : [base]) as string[]) {
            routes.push({
              name: `${RequestMethod[method]} ${joinPath(basePath, routePath)}`,
              pathParameters: named(RouteParamtypes.PARAM),
              queryParameters: named(RouteParamtypes.QUERY),
            });
          }
        }
      }
    }
  }
  return routes;
}

/**
 * Parameters a route validates that its operation does not declare: a DTO property without
 * `@ApiProperty` is invisible to the document, so "Try it out" cannot send it.
 */
export function undeclaredParameters(document: OpenAPIObject, routes: ServedRoute[]): string[] {
  const operations = new Map(apiOperations(document).map((op) => [op.name, op]));
  return routes.flatMap((route) => {
    const op = operations.get(route.name);
    if (!op) return [`${route.name}: served but not in the document`];
    const declared = (where: string) =>
      new Set(
        parametersOf(op)
          .filter((p) => p.in === where)
          .map((p) => p.name),
      );
    const inPath = declared('path');
    const inQuery = declared('query');
    const lacks = [
      ...route.pathParameters.filter((name) => !inPath.has(name)).map((name) => `path parameter "${name}"`),
      ...route.queryParameters
        .filter((name) => !inQuery.has(name))
        .map((name) => `query parameter "${name}"`),
    ];
    return lacks.length > 0 ? [`${route.name}: reads ${lacks.join(', ')} it does not declare`] : [];
  });
}

/** The examples of each operation's JSON request body, by operation and example name. */
export function requestBodyExamples(
  document: OpenAPIObject,
): { name: string; schema: string; value: unknown }[] {
  return apiOperations(document).flatMap((op) => {
    const body = op.operation.requestBody;
    const media = body && !isReference(body) ? body.content['application/json'] : undefined;
    const schema = media?.schema;
    if (!media || !isReference(schema)) return [];
    const name = schema.$ref.replace('#/components/schemas/', '');
    return Object.entries(media.examples ?? {}).map(([example, value]) => ({
      name: `${op.name} (example "${example}")`,
      schema: name,
      value: isReference(value) ? undefined : value.value,
    }));
  });
}

/** The value of a named example of an operation's JSON request body. */
export function requestBodyExample(document: OpenAPIObject, operationId: string, example: string): unknown {
  const op = apiOperations(document).find((candidate) => candidate.operation.operationId === operationId);
  const body = op?.operation.requestBody;
  const found =
    body && !isReference(body) ? body.content['application/json']?.examples?.[example] : undefined;
  if (!found || isReference(found)) throw new Error(`No example "${example}" for ${operationId}.`);
  return structuredClone(found.value);
}

/**
 * Properties documented as a bare nullable object: how `@ApiProperty` renders a `string | null`
 * field given no `type`, which tells a client (and "Try it out") to send an object. A free-form
 * object said so (`additionalProperties`) is meant.
 */
export function untypedNullableProperties(document: OpenAPIObject): string[] {
  return Object.entries(document.components?.schemas ?? {}).flatMap(([name, schema]) =>
    Object.entries(isReference(schema) ? {} : (schema.properties ?? {})).flatMap(([property, value]) =>
      !isReference(value) &&
      value.nullable === true &&
      value.type === 'object' &&
      value.additionalProperties === undefined &&
      !value.properties &&
      !value.allOf &&
      !value.oneOf &&
      !value.anyOf
        ? [`${name}.${property}`]
        : [],
    ),
  );
}
