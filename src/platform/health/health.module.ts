import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseLiveness } from 'src/platform/health/database-liveness';
import { HealthController } from 'src/platform/health/health.controller';
import { ProcessReadiness } from 'src/platform/health/process-readiness';

@Module({
  imports: [TerminusModule.forRoot({ logger: false, errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [DatabaseLiveness, ProcessReadiness],
  exports: [ProcessReadiness],
})
export class HealthModule {}
