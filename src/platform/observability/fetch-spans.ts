import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';

/** What a span records in place of a URL's path and query. */
const REDACTED = 'REDACTED';

/**
 * Traces the service's `fetch` calls (undici's: the MCP client's) as the HTTP instrumentation does
 * those made through `http`: a client span, child of the span waiting on it, and `traceparent` sent
 * on, so an MCP server that traces joins the tool call's trace. A call outside any span opens no
 * trace of its own. Only the URL's origin is recorded: a workspace gives its MCP server's URL, and
 * a key may be in its path (`/mcp/<key>/sse`) or its query; the tool call's span names the server.
 */
export function fetchInstrumentation(): UndiciInstrumentation {
  return new UndiciInstrumentation({
    requireParentforSpans: true,
    startSpanHook: (request) => {
      const url = new URL(request.path, request.origin);
      const query = url.search ? `?${REDACTED}` : '';
      return {
        'url.full': `${url.origin}/${REDACTED}${query}`,
        'url.path': `/${REDACTED}`,
        ...(query ? { 'url.query': REDACTED } : {}),
      };
    },
  });
}
