import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';

/**
 * Traces the service's `fetch` calls (undici's: the MCP client's) as the HTTP instrumentation does
 * those made through `http`: a client span, child of the span waiting on it, and `traceparent` sent
 * on, so an MCP server that traces joins the tool call's trace. A call outside any span opens no
 * trace of its own, and the query's values are not recorded: a server's URL may carry its key there.
 */
export function fetchInstrumentation(): UndiciInstrumentation {
  return new UndiciInstrumentation({
    requireParentforSpans: true,
    startSpanHook: (request) => {
      const url = new URL(request.path, request.origin);
      return url.search ? { 'url.full': withQueryRedacted(url), 'url.query': redactedQuery(url) } : {};
    },
  });
}

/** `?key=REDACTED&…`: which parameters were sent, not their values. */
function redactedQuery(url: URL): string {
  const keys = [...url.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=REDACTED`);
  return `?${keys.join('&')}`;
}

function withQueryRedacted(url: URL): string {
  return `${url.origin}${url.pathname}${redactedQuery(url)}`;
}
