import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from 'src/platform/auth/auth.decorators';
import { DomainError } from 'src/platform/errors/domain-error';
import { DatabaseLiveness } from 'src/platform/health/database-liveness';
import { ProcessReadiness } from 'src/platform/health/process-readiness';

@ApiTags('health')
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly liveness: DatabaseLiveness,
    private readonly readiness: ProcessReadiness,
  ) {}

  @Get('healthz')
  @ApiOperation({
    summary: 'Liveness: the process answers and has reached the database lately.',
    description:
      "No key needed. For an orchestrator's liveness probe: 503 `service_unavailable` once the database has been out of reach for longer than `DATABASE_OUTAGE_LIVENESS_MS`, so that a restart can find it again.",
  })
  @ApiOkResponse({ description: 'The process is alive.', schema: { example: { status: 'ok' } } })
  @ApiServiceUnavailableResponse({ description: 'The database has been out of reach for too long.' })
  live(): { status: 'ok' } {
    const silentMs = this.liveness.outageBeyondBound();
    if (silentMs !== null) {
      throw new DomainError(
        'service_unavailable',
        `Not live: the database has not answered for ${Math.round(silentMs / 1000)} s.`,
      );
    }
    return { status: 'ok' };
  }

  @Get('readyz')
  @HealthCheck()
  @ApiOperation({
    summary: 'Readiness: the process takes new work and the database answers within 2 s.',
    description:
      'No key needed. 503 `service_unavailable` while the database cannot be reached, and from the moment the process is told to stop (it still serves for `SHUTDOWN_GRACE_MS`).',
  })
  @ApiServiceUnavailableResponse({
    description: 'The database cannot be reached, or the process is stopping.',
  })
  async ready() {
    if (this.readiness.stopping) {
      throw new DomainError('service_unavailable', 'Not ready: the process is stopping.');
    }
    try {
      return await this.health.check([() => this.database.pingCheck('database', { timeout: 2000 })]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      // Terminus reports in its own shape; the envelope carries one sentence instead.
      throw new DomainError('service_unavailable', 'Not ready: the database cannot be reached.');
    }
  }
}
