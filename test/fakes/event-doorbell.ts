import type { EventDoorbell } from 'src/platform/events/event-doorbell';

/**
 * The doorbell in memory: the test rings a conversation as PostgreSQL's NOTIFY does once a
 * transaction that appended to its log commits.
 */
export class FakeEventDoorbell {
  private readonly subscribers = new Map<number, Set<() => void>>();

  subscribe(conversationId: number, ring: () => void): () => void {
    const rings = this.subscribers.get(conversationId) ?? new Set<() => void>();
    rings.add(ring);
    this.subscribers.set(conversationId, rings);
    return () => rings.delete(ring);
  }

  ring(conversationId: number): void {
    for (const ring of this.subscribers.get(conversationId) ?? []) ring();
  }

  subscriptionCount(): number {
    return [...this.subscribers.values()].reduce((count, rings) => count + rings.size, 0);
  }

  /** As the feed takes it. */
  asDoorbell(): EventDoorbell {
    return this as unknown as EventDoorbell;
  }
}
