import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DatabaseAddress, databaseClient } from 'src/platform/database/database-address';
import { HealthConfig } from 'src/platform/health/health.config';

/** Pings stay well under the bound, so a missed one or two does not yet count as an outage. */
const PINGS_PER_BOUND = 4;
const MAX_PING_INTERVAL_MS = 5_000;
/** A bound of a few milliseconds must not turn the pings into a busy loop. */
const MIN_PING_INTERVAL_MS = 250;
/** A ping that cannot even connect in this long has not reached the database. */
const PING_CONNECT_TIMEOUT_MS = 5_000;

/**
 * Pings the database in the background and remembers when it last answered: a process that has not
 * reached it for longer than its bound is no longer live. Durations are measured on the monotonic
 * clock, which neither a test's clock nor a change of the system time moves.
 */
@Injectable()
export class DatabaseLiveness implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private lastAnsweredAt = performance.now();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly address: DatabaseAddress,
    private readonly config: HealthConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule();
  }

  /** A ping under way is not waited for: against a database that is down it could take 30 s. */
  beforeApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Milliseconds since the database last answered, when that is past the bound; null while within it. */
  outageBeyondBound(): number | null {
    const silentMs = performance.now() - this.lastAnsweredAt;
    return silentMs > this.config.databaseOutageLivenessMs ? silentMs : null;
  }

  private schedule(): void {
    if (this.stopped) return;
    const interval = Math.max(
      MIN_PING_INTERVAL_MS,
      Math.min(MAX_PING_INTERVAL_MS, this.config.databaseOutageLivenessMs / PINGS_PER_BOUND),
    );
    this.timer = setTimeout(() => void this.ping().finally(() => this.schedule()), interval);
    this.timer.unref();
  }

  /**
   * On a connection of its own, not the pool's: a pool kept busy by requests is a process at work,
   * not one that lost its database.
   */
  private async ping(): Promise<void> {
    const client = databaseClient(this.address, { connectionTimeoutMillis: PING_CONNECT_TIMEOUT_MS });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      this.lastAnsweredAt = performance.now();
    } catch {
      // Out of reach: the failed connection had the address read again; the next ping tells.
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
