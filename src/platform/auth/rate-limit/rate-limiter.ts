import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PlatformConfig } from 'src/platform/config/platform.config';
import { RateLimitDecision, RateLimitLedger } from 'src/platform/auth/rate-limit/rate-limit-ledger';
import { RateLimitStore } from 'src/platform/auth/rate-limit/rate-limit-store';

/** How often each process adds its use to the shared counters and reads the others' back. */
export const RATE_LIMIT_SYNC_INTERVAL_MS = 1000;

/**
 * Per-key limits over fixed windows, across processes, without a database write per request:
 * requests are counted in memory (RateLimitLedger) and a timer reconciles the counts with the
 * shared counters about once a second. A process reads a key's counter once per window, on the
 * key's first request there, so a key cannot start afresh on every process. Between two
 * reconciliations, processes may together exceed a limit by what they admit in that second.
 */
@Injectable()
export class RateLimiter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly ledger: RateLimitLedger | null;
  private readonly firstReads = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private sync: Promise<void> | null = null;
  private prunedWindow = 0;

  constructor(
    config: PlatformConfig,
    private readonly store: RateLimitStore,
  ) {
    this.ledger =
      config.rateLimitRequests > 0
        ? new RateLimitLedger(config.rateLimitRequests, config.rateLimitWindowSeconds * 1000)
        : null;
  }

  onApplicationBootstrap(): void {
    if (!this.ledger) return;
    this.timer = setInterval(() => void this.reconcile(), RATE_LIMIT_SYNC_INTERVAL_MS);
  }

  /** Stops the timer and hands this process's last counts to the others. */
  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sync;
    if (this.ledger) await this.reconcile();
  }

  /** Null when limiting is off. */
  async consume(keyId: string): Promise<RateLimitDecision | null> {
    const ledger = this.ledger;
    if (!ledger) return null;
    if (!ledger.knows(keyId, Date.now())) await this.readFirst(ledger, keyId);
    return ledger.take(keyId, Date.now());
  }

  private readFirst(ledger: RateLimitLedger, keyId: string): Promise<void> {
    const windowStart = ledger.windowStart(Date.now());
    const id = `${keyId}@${windowStart}`;
    let read = this.firstReads.get(id);
    if (!read) {
      read = this.store
        .add(new Date(windowStart), new Map(), [keyId])
        .then(
          (totals) => ledger.learn(keyId, windowStart, totals.get(keyId) ?? 0),
          (error: unknown) => {
            // Fail open: the limit only protects the service, the database problem is reported elsewhere.
            this.logger.warn({ err: error }, 'Could not read a rate limit counter');
            ledger.learn(keyId, windowStart, 0);
          },
        )
        .finally(() => this.firstReads.delete(id));
      this.firstReads.set(id, read);
    }
    return read;
  }

  private reconcile(): Promise<void> {
    if (this.sync || !this.ledger) return this.sync ?? Promise.resolve();
    const ledger = this.ledger;
    const batch = ledger.drain(Date.now());
    const started = (async () => {
      if (batch.keys.length > 0) {
        try {
          ledger.settle(
            batch,
            await this.store.add(new Date(batch.windowStart), batch.increments, batch.keys),
          );
        } catch (error) {
          ledger.restore(batch);
          this.logger.warn({ err: error }, 'Could not reconcile rate limit counters');
        }
      }
      // Once per window, by processes that serve requests (not the CLI).
      if (batch.keys.length > 0 && batch.windowStart !== this.prunedWindow) {
        await this.store.prune(new Date(batch.windowStart - ledger.windowMs)).then(
          () => (this.prunedWindow = batch.windowStart),
          (error: unknown) => this.logger.warn({ err: error }, 'Could not prune rate limit counters'),
        );
      }
    })();
    this.sync = started.finally(() => (this.sync = null));
    return this.sync;
  }
}
