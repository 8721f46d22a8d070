import ipaddr from 'ipaddr.js';
import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { integer, text, url } from 'src/platform/config/variables';

/** A token short enough to guess is no lock. */
const MIN_METRICS_TOKEN_LENGTH = 16;

/** `localhost` or an IP literal: a host name would be resolved at every start, to whatever DNS says. */
function refusedHost(raw: string): string | null {
  return raw === 'localhost' || ipaddr.isValid(raw)
    ? null
    : `must be an IP address or localhost, got "${raw}".`;
}

const isLoopback = (host: string) => host === 'localhost' || ipaddr.process(host).range() === 'loopback';

const observabilityConfig = ConfigSchema.of({
  metricsToken: text('METRICS_TOKEN', {
    refuses: (raw) =>
      raw.length < MIN_METRICS_TOKEN_LENGTH
        ? `must be at least ${MIN_METRICS_TOKEN_LENGTH} characters, got ${raw.length}.`
        : null,
    description:
      'Bearer token `GET /metrics` asks for (at least 16 characters). Unset: `/metrics` on the main port refuses every request.',
  }),
  metricsPort: integer('METRICS_PORT', {
    default: null,
    min: 1,
    max: 65_535,
    shownDefault: '_(unset)_',
    description:
      'Serve `/metrics` on this port instead of the main one (without a token unless `METRICS_TOKEN` is set); the main port then answers 404.',
  }),
  metricsHost: text('METRICS_HOST', {
    default: '127.0.0.1',
    refuses: refusedHost,
    description:
      'Address `METRICS_PORT` listens on. Loopback by default; any other address (`0.0.0.0` for a scraper on the network) needs `METRICS_TOKEN`.',
  }),
  // Read by the tracing bootstrap before the configuration (the SDK reads the other OTEL_* itself).
  otlpEndpoint: url('OTEL_EXPORTER_OTLP_ENDPOINT', {
    protocols: ['http:', 'https:'],
    description:
      'OTLP collector (`http://collector:4318`): traces of requests, agent runs, model and tool calls are exported there over http/protobuf. Unset: tracing is off.',
  }),
}).then((values, refuse) => {
  if (values.metricsPort !== null && values.metricsToken === null && !isLoopback(values.metricsHost)) {
    refuse(
      `METRICS_HOST is ${values.metricsHost}, off loopback, but METRICS_TOKEN is not set: anyone who reaches the port would read the metrics.`,
    );
  }
  return values;
});

/** The operator's view of the service: who may scrape its metrics and where, and where traces go. */
export abstract class ObservabilityConfig extends configToken(observabilityConfig) {}
