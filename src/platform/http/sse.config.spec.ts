import { describe, expect, it } from '@jest/globals';
import { ConfigError } from 'src/platform/config/config-schema';
import { SseConfig } from 'src/platform/http/sse.config';

describe('SseConfig', () => {
  it('applies defaults when nothing is set', () => {
    expect(SseConfig.from({})).toEqual({
      idleTimeoutMs: 180_000,
      heartbeatMs: 15_000,
      pollMs: 5_000,
      slowClientTimeoutMs: 30_000,
      maxStreamsPerKey: 50,
      maxStreamsPerWorkspace: 1000,
      accessRecheckMs: 30_000,
    });
  });

  it('reads the event stream timings, caps and the access re-check period', () => {
    expect(
      SseConfig.from({
        SSE_IDLE_TIMEOUT_MS: '300',
        SSE_HEARTBEAT_MS: '50',
        SSE_POLL_MS: '100',
        SSE_SLOW_CLIENT_TIMEOUT_MS: '1000',
        SSE_MAX_KEY_STREAMS: '3',
        SSE_MAX_WORKSPACE_STREAMS: '7',
        SSE_ACCESS_RECHECK_MS: '250',
      }),
    ).toEqual({
      idleTimeoutMs: 300,
      heartbeatMs: 50,
      pollMs: 100,
      slowClientTimeoutMs: 1000,
      maxStreamsPerKey: 3,
      maxStreamsPerWorkspace: 7,
      accessRecheckMs: 250,
    });
  });

  const refused: [Record<string, string>, RegExp][] = [
    [
      { SSE_IDLE_TIMEOUT_MS: '3 minutes' },
      /^SSE_IDLE_TIMEOUT_MS must be a number of milliseconds between 10 and 86400000, got "3 minutes"\.$/,
    ],
    [{ SSE_HEARTBEAT_MS: '9' }, /^SSE_HEARTBEAT_MS must be a number of milliseconds/],
    [{ SSE_POLL_MS: '86400001' }, /^SSE_POLL_MS must be a number of milliseconds/],
    [{ SSE_MAX_KEY_STREAMS: '0' }, /^SSE_MAX_KEY_STREAMS must be an integer between 1 and/],
    [{ SSE_MAX_WORKSPACE_STREAMS: 'lots' }, /^SSE_MAX_WORKSPACE_STREAMS must be an integer/],
    [{ SSE_ACCESS_RECHECK_MS: '5' }, /^SSE_ACCESS_RECHECK_MS must be a number of milliseconds/],
  ];
  for (const [env, message] of refused) {
    it(`refuses ${JSON.stringify(env)} with a line naming the variable`, () => {
      expect(() => SseConfig.from(env)).toThrow(ConfigError);
      expect(() => SseConfig.from(env)).toThrow(message);
    });
  }
});
