import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import { errorAnswerOf } from 'src/platform/http/error-answers';
import { sendError } from 'src/platform/http/send-json';
import { Metrics } from 'src/platform/observability/metrics';
import { metricsRefusal } from 'src/platform/observability/metrics-access';
import { ObservabilityConfig } from 'src/platform/observability/observability.config';

/**
 * `GET /metrics` on `METRICS_HOST`:`METRICS_PORT`, apart from the API (a port the network keeps to the scraper):
 * a plain Node server, so a scrape goes through none of the API's middleware.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private server: Server | null = null;

  constructor(
    private readonly metrics: Metrics,
    private readonly config: ObservabilityConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { metricsPort, metricsHost, metricsToken } = this.config;
    if (metricsPort === null) return;
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        sendError(res, 404, 'not_found', 'Only GET /metrics is served on this port.');
        return;
      }
      const refusal = metricsRefusal(req.headers.authorization, metricsToken, false);
      if (refusal) {
        const { status, type } = errorAnswerOf(refusal.code);
        sendError(res, status, type, refusal.message);
        return;
      }
      this.metrics.text().then(
        (body) => {
          res.setHeader('Content-Type', this.metrics.contentType);
          res.end(body);
        },
        () => sendError(res, 500, 'internal_server_error', 'The metrics could not be collected.'),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(metricsPort, metricsHost, () => resolve());
    });
    this.server = server;
  }

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
