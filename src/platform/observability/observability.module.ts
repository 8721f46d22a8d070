import { Global, Module } from '@nestjs/common';
import { HttpMetrics } from 'src/platform/observability/http-metrics';
import { Metrics } from 'src/platform/observability/metrics';
import { MetricsController } from 'src/platform/observability/metrics.controller';
import { MetricsServer } from 'src/platform/observability/metrics-server';
import { PoolMetrics } from 'src/platform/observability/pool-metrics';

/** Metrics of this application (its own registry), `/metrics` and its separate port. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    { provide: Metrics, useFactory: () => new Metrics() },
    { provide: HttpMetrics, useFactory: (metrics: Metrics) => new HttpMetrics(metrics), inject: [Metrics] },
    MetricsServer,
    PoolMetrics,
  ],
  exports: [Metrics, HttpMetrics],
})
export class ObservabilityModule {}
