import { describe, expect, it } from '@jest/globals';
import { ObservabilityConfig } from 'src/platform/observability/observability.config';

const TOKEN = 'a-metrics-token-of-32-characters';

describe('ObservabilityConfig', () => {
  it('keeps the metrics port on loopback by default', () => {
    expect(ObservabilityConfig.from({ METRICS_PORT: '9464' })).toMatchObject({
      metricsPort: 9464,
      metricsHost: '127.0.0.1',
      metricsToken: null,
    });
  });

  it.each(['localhost', '127.0.0.1', '::1', '::ffff:127.0.0.1'])('serves %s without a token', (host) => {
    expect(ObservabilityConfig.from({ METRICS_PORT: '9464', METRICS_HOST: host }).metricsHost).toBe(host);
  });

  it.each(['0.0.0.0', '::', '10.0.0.7'])('refuses %s without a token, and takes it with one', (host) => {
    expect(() => ObservabilityConfig.from({ METRICS_PORT: '9464', METRICS_HOST: host })).toThrow(
      `METRICS_HOST is ${host}, off loopback, but METRICS_TOKEN is not set`,
    );
    expect(
      ObservabilityConfig.from({ METRICS_PORT: '9464', METRICS_HOST: host, METRICS_TOKEN: TOKEN })
        .metricsHost,
    ).toBe(host);
  });

  it('refuses a host name, which DNS could point anywhere', () => {
    expect(() => ObservabilityConfig.from({ METRICS_HOST: 'metrics.example.com' })).toThrow(
      'METRICS_HOST must be an IP address or localhost, got "metrics.example.com".',
    );
  });
});
