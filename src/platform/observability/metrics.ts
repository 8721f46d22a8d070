import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type { Counter, Histogram } from 'prom-client';

/** Seconds, from a fast query to a slow model answer. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * The service's metrics, in a registry of this application's (not prom-client's global one, so
 * tests can run several apps in one process). Contexts declare theirs here; label values must stay
 * bounded (route templates, outcomes, kinds), never ids.
 */
export class Metrics {
  readonly registry = new Registry();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /** Durations in seconds. */
  histogram<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets: LATENCY_BUCKETS, registers: [this.registry] });
  }

  /** A value read when the metrics are scraped (a queue's length, a pool's size). */
  gauge(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  /** A count kept elsewhere (it only grows), read when scraped. */
  countRead(name: string, help: string, read: () => number): void {
    new Counter({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }

  /** Several values of one gauge, by label, read when scraped. */
  labelledGauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => { labels: Record<L, string>; value: number }[],
  ): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        for (const { labels, value } of read()) this.set(labels, value);
      },
    });
  }

  /** Seconds since `start` (a `performance.now()`), for a histogram. */
  static secondsSince(start: number): number {
    return (performance.now() - start) / 1000;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
