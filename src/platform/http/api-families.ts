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
