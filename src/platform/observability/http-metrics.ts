import type { IncomingMessage, ServerResponse } from 'node:http';
import { routeTemplateOf } from 'src/platform/http/route-template';
import { Metrics } from 'src/platform/observability/metrics';

/** The label of a request that matched no route: never its URL, which is unbounded. */
const UNMATCHED = 'unmatched';

/** Requests by method, route template and status, and their latency, counted once each is answered. */
export class HttpMetrics {
  private readonly requests;
  private readonly duration;

  constructor(metrics: Metrics) {
    this.requests = metrics.counter(
      'http_requests_total',
      'HTTP requests answered, by route template and status.',
      ['method', 'route', 'status'],
    );
    this.duration = metrics.histogram(
      'http_request_duration_seconds',
      'Time to answer an HTTP request (to its end for event streams), by route template and status.',
      ['method', 'route', 'status'],
    );
  }

  track(req: IncomingMessage, res: ServerResponse): void {
    const start = performance.now();
    res.once('close', () => {
      const labels = {
        method: req.method ?? 'GET',
        route: routeTemplateOf(req) ?? UNMATCHED,
        status: String(res.statusCode),
      };
      this.requests.inc(labels);
      this.duration.observe(labels, Metrics.secondsSince(start));
    });
  }
}
