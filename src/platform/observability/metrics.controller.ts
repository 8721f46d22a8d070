import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ServerResponse } from 'node:http';
import { Public } from 'src/platform/auth/auth.decorators';
import { DomainError } from 'src/platform/errors/domain-error';
import { ApiErrors } from 'src/platform/http/api-errors';
import { Metrics } from 'src/platform/observability/metrics';
import { metricsRefusal } from 'src/platform/observability/metrics-access';
import { ObservabilityConfig } from 'src/platform/observability/observability.config';

/** The security scheme of the metrics token (not an API key), declared in the document. */
export const METRICS_TOKEN_SCHEME = 'metricsToken';

const EXAMPLE = `# HELP http_requests_total HTTP requests answered, by route template and status.
# TYPE http_requests_total counter
http_requests_total{method="GET",route="/api/w/:wId/assistant/conversations/:cId",status="200"} 42
# HELP agent_runs_finished_total Agent runs that got their outcome, by outcome.
# TYPE agent_runs_finished_total counter
agent_runs_finished_total{outcome="succeeded"} 7
`;

@ApiTags('health')
@Public()
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: Metrics,
    private readonly config: ObservabilityConfig,
  ) {}

  @Get('metrics')
  @ApiOperation({
    summary: 'Metrics in the Prometheus text format.',
    description:
      'For a Prometheus scraper: requests by route template and status, event streams, agent runs, model and tool calls, wake-ups, event-log appends, the database pool, upload bytes (docs/observability.md lists them). Needs `METRICS_TOKEN` as a bearer; closed (401) when it is not set. When `METRICS_PORT` is set, served on that port only: 404 here.',
  })
  @ApiBearerAuth(METRICS_TOKEN_SCHEME)
  @ApiOkResponse({
    description: 'The metrics, in the Prometheus text exposition format 0.0.4.',
    content: { 'text/plain': { schema: { type: 'string', example: EXAMPLE } } },
  })
  @ApiErrors(401, 404)
  async scrape(
    @Headers('authorization') authorization: string | undefined,
    @Res() res: ServerResponse,
  ): Promise<void> {
    if (this.config.metricsPort !== null) {
      throw new DomainError('not_found', `Metrics are served on port ${this.config.metricsPort}.`);
    }
    const refusal = metricsRefusal(authorization, this.config.metricsToken, true);
    if (refusal) throw refusal;
    const body = await this.metrics.text();
    res.setHeader('Content-Type', this.metrics.contentType);
    res.end(body);
  }
}
