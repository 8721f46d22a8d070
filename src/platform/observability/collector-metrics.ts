import type { OperatorLog } from 'src/platform/logging/operator-log';
import type { CollectorWatch } from 'src/platform/observability/collector-watch';
import type { Metrics } from 'src/platform/observability/metrics';

/**
 * What an operator sees of the collector: whether it takes spans, and how many traces were not
 * recorded while it did not (read when scraped), and a line when either changes.
 */
export function reportCollector(collector: CollectorWatch, metrics: Metrics, log: OperatorLog): void {
  metrics.gauge(
    'tracing_collector_up',
    'Whether the OTLP collector took the last batch of spans sent to it (1) or not (0).',
    () => (collector.collectorReachable ? 1 : 0),
  );
  metrics.countRead(
    'tracing_traces_shed_total',
    'Traces not recorded because the OTLP collector was not taking spans, since the process started.',
    () => collector.tracesShed,
  );
  collector.onChange((change) => {
    if (change.reachable) {
      log.info(
        'Tracing',
        { shedSoFar: collector.tracesShed },
        'The collector takes spans again: every trace is recorded',
      );
    } else {
      log.warn(
        'Tracing',
        { err: change.error },
        'The collector did not take a batch of spans: new traces are not recorded (but one a second, to try it) until it does',
      );
    }
  });
}
