import type { IncomingMessage } from 'node:http';

/**
 * The route a request matched, as declared (`/api/w/:wId/files/:fileId`): a bounded value for logs
 * and metric labels, where the URL carries ids. Undefined before routing, or when no route matched.
 */
export function routeTemplateOf(req: IncomingMessage): string | undefined {
  const route = (req as IncomingMessage & { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? route.path : undefined;
}
