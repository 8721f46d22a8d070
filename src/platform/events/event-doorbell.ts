import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Client } from 'pg';
import { DatabaseAddress, databaseClient } from 'src/platform/database/database-address';
import { ACCESS_CHANGES_CHANNEL } from 'src/platform/events/access-changes';
import { CONVERSATION_EVENTS_CHANNEL } from 'src/platform/events/typeorm-conversation-event-log';

export type Ring = () => void;

const RECONNECT_MIN_MS = 200;
const RECONNECT_MAX_MS = 5_000;

/**
 * One LISTEN connection per process. A notification only says "conversation N has news"; the
 * subscribers then read the log. After a reconnection every subscriber is rung, since
 * notifications sent while the connection was down are lost. The same connection hears access
 * notices, so they arrive in commit order with the events.
 */
@Injectable()
export class EventDoorbell implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(EventDoorbell.name);
  private readonly subscribers = new Map<number, Set<Ring>>();
  private readonly accessListeners: ((payload: string | null) => void)[] = [];
  private readonly channelListeners = new Map<string, ((payload: string | null) => void)[]>();
  private client: Client | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectDelay = RECONNECT_MIN_MS;
  private stopped = false;

  constructor(private readonly address: DatabaseAddress) {}

  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  /** Rings `ring` whenever an event of the conversation may have been committed; returns the unsubscribe. */
  subscribe(conversationId: number, ring: Ring): () => void {
    const rings = this.subscribers.get(conversationId) ?? new Set<Ring>();
    rings.add(ring);
    this.subscribers.set(conversationId, rings);
    return () => {
      rings.delete(ring);
      if (rings.size === 0) this.subscribers.delete(conversationId);
    };
  }

  /** Hears each access notice's payload, and `null` after a reconnection (notices may be lost). */
  onAccessNotice(listener: (payload: string | null) => void): void {
    this.accessListeners.push(listener);
  }

  /**
   * Hears each notice of another `channel` (a constant identifier) on the same connection, and
   * `null` after a reconnection (notices may be lost).
   */
  listen(channel: string, listener: (payload: string | null) => void): void {
    const listeners = this.channelListeners.get(channel);
    if (listeners) {
      listeners.push(listener);
      return;
    }
    this.channelListeners.set(channel, [listener]);
    this.client
      ?.query(`LISTEN ${channel}`)
      .catch((error: unknown) => this.onLost(this.client!, error as Error));
  }

  /** Subscriptions currently held (observability and tests). */
  subscriptionCount(): number {
    let count = 0;
    for (const rings of this.subscribers.values()) count += rings.size;
    return count;
  }

  get listening(): boolean {
    return this.client !== null;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = databaseClient(this.address, { connectionTimeoutMillis: 5_000 });
    client.on('notification', (message) => {
      const listeners = this.channelListeners.get(message.channel);
      if (message.channel === ACCESS_CHANGES_CHANNEL) {
        for (const listener of this.accessListeners) listener(message.payload ?? '');
      } else if (listeners) {
        for (const listener of listeners) listener(message.payload ?? '');
      } else this.onNotification(message.payload);
    });
    client.on('error', (error) => this.onLost(client, error));
    client.on('end', () => this.onLost(client, null));
    try {
      await client.connect();
      const channels = [CONVERSATION_EVENTS_CHANNEL, ACCESS_CHANGES_CHANNEL, ...this.channelListeners.keys()];
      await client.query(channels.map((channel) => `LISTEN ${channel}`).join('; '));
    } catch (error) {
      await client.end().catch(() => undefined);
      this.scheduleReconnect(error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    const wasDown = this.reconnectDelay !== RECONNECT_MIN_MS;
    this.client = client;
    this.reconnectDelay = RECONNECT_MIN_MS;
    if (wasDown) {
      this.logger.log('Listening for conversation events again');
      this.ringEveryone();
      for (const listener of this.accessListeners) listener(null);
      for (const listeners of this.channelListeners.values())
        for (const listener of listeners) listener(null);
    }
  }

  private onNotification(payload: string | undefined): void {
    let conversationId: number;
    try {
      conversationId = (JSON.parse(payload ?? '') as { conversationId: number }).conversationId;
    } catch {
      return;
    }
    for (const ring of this.subscribers.get(conversationId) ?? []) ring();
  }

  private onLost(client: Client, error: Error | null): void {
    if (this.client !== client || this.stopped) return;
    this.client = null;
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    this.scheduleReconnect(error);
  }

  private scheduleReconnect(error: unknown): void {
    if (this.stopped || this.reconnectTimer) return;
    this.logger.warn({ err: error }, `LISTEN connection lost; retrying in ${this.reconnectDelay} ms`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, this.reconnectDelay);
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
  }

  private ringEveryone(): void {
    for (const rings of this.subscribers.values()) for (const ring of rings) ring();
  }
}
