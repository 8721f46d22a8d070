import type { OpenAPIObject, OperationObject, PathItemObject } from '@nestjs/swagger';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;
export type HttpMethod = (typeof METHODS)[number];

export interface ApiOperation {
  method: HttpMethod;
  /** The path template of the document, `/api/w/{wId}/…`. */
  path: string;
  operation: OperationObject;
  /** `POST /api/w/{wId}/members`: how failures name the operation. */
  name: string;
  /** No bearer security requirement: open to anyone. */
  isPublic: boolean;
  requiredScopes: string[];
  requiredRoles: string[];
  pathParameters: string[];
}

/** A syntactically valid id that names nothing: 10 base62 characters, like an agent or message sId. */
export const UNKNOWN_ID = 'Unknown0Id';

/** Every operation of the document, so checks built on it cover routes added later. */
export function apiOperations(document: OpenAPIObject): ApiOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]: [string, PathItemObject]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      if (!operation) return [];
      const extensions = operation as unknown as Record<string, unknown>;
      return [
        {
          method,
          path,
          operation,
          name: `${method.toUpperCase()} ${path}`,
          isPublic: !(operation.security ?? []).some((requirement) => 'bearer' in requirement),
          requiredScopes: (extensions['x-required-scopes'] as string[] | undefined) ?? [],
          requiredRoles: (extensions['x-required-roles'] as string[] | undefined) ?? [],
          pathParameters: [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]),
        },
      ];
    }),
  );
}

/** The concrete path: known parameters from `values`, any other one an id that names nothing. */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(values[name] ?? UNKNOWN_ID),
  );
}

const ID_SHAPE = /^(?:[A-Za-z0-9]{10}|[a-z]{3}_[A-Za-z0-9]{10})$/;

/**
 * Every id-shaped string of a JSON value found under `sId`, `id` or a `…Id`/`…Ids` key: what a
 * response could leak of a workspace.
 */
export function collectIds(value: unknown, into = new Set<string>(), key = ''): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) collectIds(item, into, key);
  } else if (value && typeof value === 'object') {
    for (const [childKey, child] of Object.entries(value)) collectIds(child, into, childKey);
  } else if (typeof value === 'string' && /(?:^id|^sId|Ids?)$/.test(key) && ID_SHAPE.test(value)) {
    into.add(value);
  }
  return into;
}
