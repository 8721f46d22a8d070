import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { SseConfig } from 'src/platform/http/sse.config';
import { DomainError } from 'src/platform/errors/domain-error';
import { AccessChange, AccessChanges } from 'src/platform/events/access-changes';
import { SseSource, SseStream } from 'src/platform/http/sse-stream';
import { Metrics } from 'src/platform/observability/metrics';

/** How often streams are checked for a due heartbeat: each beats `heartbeatMs` after its last write. */
const HEARTBEAT_CHECK_MS = 1_000;

/** Who holds a stream and what it reads: counted against the caps, re-checked while it is open. */
export interface StreamGrant {
  /** sId of the API key the stream was opened with. */
  keyId: string;
  workspaceId: number;
  userId: number;
  /** The conversation it reads; null for a stream of no conversation (client-side MCP requests). */
  conversationId: number | null;
}

/** Whether each grant still gives access, for many streams at once (one batch per re-check). */
export type StreamAccessCheck<G extends StreamGrant = StreamGrant> = (
  grants: readonly G[],
) => Promise<boolean[]>;

/** How soon a client whose stream a stopping process closed comes back (to another process). */
const RECONNECT_AFTER_STOP_MS = 1_000;

/**
 * A long-lived response that writes its own body (not from the event log), held to the same caps
 * and access re-checks as event streams: closed once its access is gone, holding its writes while
 * its access is re-checked.
 */
export interface HeldStream {
  close(): void;
  /** Ends it because the process stops, telling the client to reconnect (elsewhere) after `reconnectInMs`. */
  closeForRestart(reconnectInMs: number): void;
  hold(): void;
  release(): void;
  onClosed(callback: () => void): void;
}

/** Over a cap of open streams: 429, like any other rate limit. */
export class TooManyStreams extends DomainError {
  constructor(message: string) {
    super('rate_limit_error', message);
  }
}

interface OpenStream {
  stream: HeldStream;
  grant: StreamGrant;
  check: StreamAccessCheck;
}

/**
 * Opens SSE streams, beats their heartbeats and slow polls from one timer each (thousands of
 * streams would otherwise hold thousands of timers, and their polls would not share reads), and
 * ends them all before the HTTP server closes, so shutdown never waits on a stream. Caps the
 * streams of a key and of a workspace (held streams such as client-side MCP requests counted with
 * the event streams), and closes those whose access is gone: at once when their
 * key is revoked, after a batched re-check when their member or conversation changes, and on a
 * periodic batched re-check of every stream.
 */
@Injectable()
export class SseStreams implements BeforeApplicationShutdown {
  private readonly logger = new Logger(SseStreams.name);
  private readonly open = new Set<OpenStream>();
  private readonly perKey = new Map<string, number>();
  private readonly perWorkspace = new Map<number, number>();
  private timers: NodeJS.Timeout[] = [];
  private periodicCheck: Promise<void> | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly config: SseConfig,
    accessChanges: AccessChanges,
    metrics: Metrics,
  ) {
    this.unsubscribe = accessChanges.subscribe((change) => this.onAccessChange(change));
    metrics.gauge(
      'sse_open_streams',
      'Event streams and MCP request streams open on this process.',
      () => this.open.size,
    );
  }

  /**
   * The stream writes its own head and body on the Node response (headers set before it are
   * kept). Throws `TooManyStreams`, before writing anything, when the key or workspace is at its cap.
   */
  start<G extends StreamGrant>(
    res: ServerResponse,
    source: SseSource,
    fromId: bigint,
    grant: G,
    check: StreamAccessCheck<G>,
  ): SseStream {
    this.refuseOverCaps(grant);
    const stream = new SseStream(res, source, fromId, this.config);
    this.track(stream, grant, check);
    return stream;
  }

  /**
   * Counts a stream that writes its own body against the same caps, and closes it as event streams
   * are closed once their access is gone. Throws `TooManyStreams` at a cap: call it before writing.
   */
  admit<G extends StreamGrant>(stream: HeldStream, grant: G, check: StreamAccessCheck<G>): void {
    this.refuseOverCaps(grant);
    this.track(stream, grant, check);
  }

  private refuseOverCaps(grant: StreamGrant): void {
    const { maxStreamsPerKey, maxStreamsPerWorkspace } = this.config;
    if ((this.perKey.get(grant.keyId) ?? 0) >= maxStreamsPerKey) {
      throw new TooManyStreams(
        `This API key already has ${maxStreamsPerKey} open streams (event streams and MCP request streams); close one before opening another.`,
      );
    }
    if ((this.perWorkspace.get(grant.workspaceId) ?? 0) >= maxStreamsPerWorkspace) {
      throw new TooManyStreams(
        `This workspace already has ${maxStreamsPerWorkspace} open streams (event streams and MCP request streams); close one before opening another.`,
      );
    }
  }

  private track<G extends StreamGrant>(stream: HeldStream, grant: G, check: StreamAccessCheck<G>): void {
    // A check is only ever handed the grants of the streams registered with it, all of type G.
    const entry: OpenStream = { stream, grant, check: check as StreamAccessCheck };
    this.open.add(entry);
    this.perKey.set(grant.keyId, (this.perKey.get(grant.keyId) ?? 0) + 1);
    this.perWorkspace.set(grant.workspaceId, (this.perWorkspace.get(grant.workspaceId) ?? 0) + 1);
    if (this.timers.length === 0) this.startTimers();
    stream.onClosed(() => {
      this.open.delete(entry);
      decrement(this.perKey, grant.keyId);
      decrement(this.perWorkspace, grant.workspaceId);
      if (this.open.size === 0) this.stopTimers();
    });
  }

  get count(): number {
    return this.open.size;
  }

  beforeApplicationShutdown(): void {
    this.unsubscribe();
    for (const { stream } of [...this.open]) stream.closeForRestart(RECONNECT_AFTER_STOP_MS);
    this.stopTimers();
  }

  private onAccessChange(change: AccessChange): void {
    const open = [...this.open];
    switch (change.kind) {
      case 'key_revoked':
        // A revocation is final: no query needed.
        for (const { stream, grant } of open) if (grant.keyId === change.keyId) stream.close();
        return;
      case 'member_changed':
        void this.recheck(
          open.filter(
            ({ grant }) => grant.workspaceId === change.workspaceId && grant.userId === change.userId,
          ),
          true,
        );
        return;
      case 'conversation_changed':
        void this.recheck(
          open.filter(({ grant }) => grant.conversationId === change.conversationId),
          true,
        );
        return;
      case 'unknown':
        void this.recheck(open, false);
    }
  }

  /**
   * Re-checks the streams' access, one batch per check function, and closes those that lost it.
   * After a known change (`hold`), the streams deliver nothing until their check answers, and a
   * failed check closes them (the client reconnects and is checked afresh); a failed periodic
   * check leaves them to the next period.
   */
  private async recheck(entries: OpenStream[], hold: boolean): Promise<void> {
    if (entries.length === 0) return;
    if (hold) for (const { stream } of entries) stream.hold();
    const byCheck = new Map<StreamAccessCheck, OpenStream[]>();
    for (const entry of entries) {
      const group = byCheck.get(entry.check);
      if (group) group.push(entry);
      else byCheck.set(entry.check, [entry]);
    }
    await Promise.all(
      [...byCheck].map(async ([check, group]) => {
        let allowed: boolean[];
        try {
          allowed = await check(group.map(({ grant }) => grant));
        } catch (error) {
          this.logger.warn({ err: error }, 'Could not re-check the access of event streams');
          if (hold) for (const { stream } of group) stream.close();
          return;
        }
        group.forEach(({ stream }, i) => {
          if (!allowed[i]) stream.close();
          else if (hold) stream.release();
        });
      }),
    );
  }

  private startTimers(): void {
    const { heartbeatMs, pollMs, accessRecheckMs } = this.config;
    this.timers = [
      setInterval(
        () => {
          const now = Date.now();
          this.each((stream) => stream.heartbeat(now));
        },
        Math.min(heartbeatMs, HEARTBEAT_CHECK_MS),
      ),
      setInterval(() => this.each((stream) => stream.poll()), pollMs),
      setInterval(() => {
        // One periodic check at a time: a slow database must not pile them up.
        this.periodicCheck ??= this.recheck([...this.open], false).finally(() => {
          this.periodicCheck = null;
        });
      }, accessRecheckMs),
    ];
  }

  private stopTimers(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /** The event streams: held streams beat and poll on their own. */
  private each(visit: (stream: SseStream) => void): void {
    for (const { stream } of [...this.open]) if (stream instanceof SseStream) visit(stream);
  }
}

function decrement<K>(counts: Map<K, number>, key: K): void {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
