import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { duration, integer } from 'src/platform/config/variables';

const healthConfig = ConfigSchema.of({
  databaseOutageLivenessMs: duration('DATABASE_OUTAGE_LIVENESS_MS', {
    default: 60_000,
    description:
      'Once the database has been out of reach this long, `GET /healthz` answers 503, so that a liveness probe restarts the process (`/readyz` fails at once).',
  }),
  shutdownGraceMs: integer('SHUTDOWN_GRACE_MS', {
    default: 3_000,
    min: 0,
    max: 60_000,
    description:
      'On SIGTERM, how long the process goes on serving while `GET /readyz` answers 503, so that a load balancer stops sending it requests before it closes.',
  }),
});

/** What the health endpoints tell a probe. */
export abstract class HealthConfig extends configToken(healthConfig) {}
