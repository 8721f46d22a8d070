import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { duration, integer } from 'src/platform/config/variables';

const sseConfig = ConfigSchema.of({
  idleTimeoutMs: duration('SSE_IDLE_TIMEOUT_MS', {
    default: 180_000,
    description:
      'An event stream with no event for this long is closed (the client resumes with `Last-Event-ID`).',
  }),
  heartbeatMs: duration('SSE_HEARTBEAT_MS', {
    default: 15_000,
    description: 'Interval of the `: ping` comment on event streams.',
  }),
  pollMs: duration('SSE_POLL_MS', {
    default: 5_000,
    description:
      'Slow poll of the event log behind the LISTEN/NOTIFY doorbell, in case a notification is lost.',
  }),
  slowClientTimeoutMs: duration('SSE_SLOW_CLIENT_TIMEOUT_MS', {
    default: 30_000,
    description: 'A stream whose client does not read for this long is cut (no unbounded buffering).',
  }),
  // Far above what a browser-heavy team opens (a tab holds one stream per open conversation).
  maxStreamsPerKey: integer('SSE_MAX_KEY_STREAMS', {
    default: 50,
    min: 1,
    max: 1_000_000,
    description:
      'Open event streams and `mcp/requests` streams one API key may hold on a process; one more is refused with 429 `rate_limit_error`.',
  }),
  maxStreamsPerWorkspace: integer('SSE_MAX_WORKSPACE_STREAMS', {
    default: 1_000,
    min: 1,
    max: 1_000_000,
    description:
      'Open event streams and `mcp/requests` streams one workspace may hold on a process; one more is refused with 429 `rate_limit_error`.',
  }),
  accessRecheckMs: duration('SSE_ACCESS_RECHECK_MS', {
    default: 30_000,
    description:
      "Period of the batched re-check of every open stream's access (key, membership, spaces); revocations and space changes are heard at once.",
  }),
});

/** The event streams' timings and caps (platform/http writes every stream, whichever context serves it). */
export abstract class SseConfig extends configToken(sseConfig) {}
