import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
} from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathOf } from 'src/platform/http/path-of';
import { routeTemplateOf } from 'src/platform/http/route-template';

/** A plain Node middleware, as the service's edge is (`app.use`). */
export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** Probes and scrapes: a span each, every few seconds, would say nothing about the service's work. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Runs `middleware`, and through its `next` the rest of the request, inside the request's server
 * span: the child of the caller's `traceparent` when it sends one. Only the active context carries
 * the span (nothing is bound to the request's emitters), and it gets a handful of attributes (no
 * host, user agent or addresses): the HTTP instrumentation's incoming side did both on every request.
 */
export function inServerSpans(middleware: NodeMiddleware): NodeMiddleware {
  const tracer = trace.getTracer('workspace-agent-api');
  return (req, res, next) => {
    // Never the query: a signed URL's signature is in it.
    const path = pathOf(req.url ?? '/');
    if (UNTRACED_PATHS.has(path)) {
      middleware(req, res, next);
      return;
    }
    const method = req.method ?? 'GET';
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(
      method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': path } },
      parent,
    );
    // A span not recorded (sampled out, or shed while the collector is away) has nothing to end.
    if (span.isRecording()) res.once('close', () => endServerSpan(span, req, res));
    context.with(trace.setSpan(parent, span), middleware, undefined, req, res, next);
  };
}

/**
 * Once answered (or the client gone): named after the route the request matched
 * (`GET /api/w/:wId/files/:fileId`), with its status; a 5xx marks it failed.
 */
function endServerSpan(span: Span, req: IncomingMessage, res: ServerResponse): void {
  const route = routeTemplateOf(req);
  if (route !== undefined) {
    span.setAttribute('http.route', route);
    span.updateName(`${req.method ?? 'GET'} ${route}`);
  }
  // A request the client left before any answer has no status.
  if (res.headersSent) {
    const status = res.statusCode;
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) {
      span.setAttribute('error.type', String(status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  }
  span.end();
}
