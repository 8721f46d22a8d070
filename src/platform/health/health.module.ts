import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseLiveness } from 'src/platform/health/database-liveness';
import { HealthController } from 'src/platform/health/health.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false, errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [DatabaseLiveness],
})
export class HealthModule {}
