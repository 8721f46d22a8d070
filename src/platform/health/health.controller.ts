import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from 'src/platform/auth/auth.decorators';
import { DomainError } from 'src/platform/errors/domain-error';

@ApiTags('health')
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  @Get('healthz')
  @ApiOperation({
    summary: 'Liveness: the process answers.',
    description: 'No key needed. For a load balancer or an orchestrator; says nothing about the database.',
  })
  @ApiOkResponse({ description: 'The process is alive.', schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @HealthCheck()
  @ApiOperation({
    summary: 'Readiness: the database answers within 2 s.',
    description: 'No key needed. 503 `service_unavailable` while the database cannot be reached.',
  })
  @ApiServiceUnavailableResponse({ description: 'The database cannot be reached.' })
  async ready() {
    try {
      return await this.health.check([() => this.database.pingCheck('database', { timeout: 2000 })]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      // Terminus reports in its own shape; the envelope carries one sentence instead.
      throw new DomainError('service_unavailable', 'Not ready: the database cannot be reached.');
    }
  }
}
