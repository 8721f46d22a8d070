import type { OpenAPIObject, OperationObject, ReferenceObject, ResponseObject } from '@nestjs/swagger';

/**
 * A route served on both path families: `/api/w/{wId}/…` (the specification's) and
 * `/api/v1/w/{wId}/…` (the public family Dust's client calls), with the same rules and shapes.
 * Nest registers each path; the OpenAPI document lists each as an operation of its own.
 */
export function bothFamilies(path = ''): string[] {
  const rest = path === '' ? '' : `/${path}`;
  return [`api/w/:wId${rest}`, `api/v1/w/:wId${rest}`];
}

/**
 * Operation ids of the OpenAPI document: Nest's `<Controller>_<method>`, and for a route of both
 * families (listed in `bothFamilies`' order, so Nest names them `method[0]` and `method[1]`) the
 * public one suffixed `_v1`.
 */
export function familyOperationId(controllerKey: string, methodKey: string): string {
  const alias = /^(.+)\[(\d+)\]$/.exec(methodKey);
  if (!alias) return `${controllerKey}_${methodKey}`;
  return `${controllerKey}_${alias[1]}${alias[2] === '0' ? '' : '_v1'}`;
}

/**
 * Where a public-family route answers a richer shape than its `/api/w/` twin (same handler), the
 * document says so: each of its JSON responses naming a schema of `replacements` names the
 * replacement instead.
 */
export function answerPublicFamilyWith(
  document: OpenAPIObject,
  replacements: Record<string, string>,
): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const operation of Object.values(item) as OperationObject[]) {
      for (const response of Object.values(operation.responses ?? {}) as ResponseObject[]) {
        const json = response.content?.['application/json'];
        const ref = (json?.schema as ReferenceObject | undefined)?.$ref;
        const name = ref?.replace('#/components/schemas/', '');
        if (json && name && replacements[name])
          json.schema = { $ref: `#/components/schemas/${replacements[name]}` };
      }
    }
  }
  return document;
}
