import type { UnitOfWork } from 'src/platform/database/unit-of-work';
import { CommittedEvents, InProcessEvents, InTransactionEvents } from 'src/platform/events/in-process-events';

export type CommittedEvent = {
  [K in keyof CommittedEvents]: { name: K; payload: CommittedEvents[K] };
}[keyof CommittedEvents];

export type InTransactionEvent = {
  [K in keyof InTransactionEvents]: { name: K; payload: InTransactionEvents[K] };
}[keyof InTransactionEvents];

type Listener<K extends keyof InTransactionEvents> = (payload: InTransactionEvents[K]) => unknown;

/**
 * In-process events that a test reads back. Committed events are recorded once the emitter's
 * transaction commits (through the unit of work, as the real port does) and never when it rolls
 * back; in-transaction events run the listeners a test registers, one by one, and are recorded as
 * they are emitted.
 */
export class RecordingInProcessEvents extends InProcessEvents {
  readonly committed: CommittedEvent[] = [];
  readonly inTransaction: InTransactionEvent[] = [];
  private readonly listeners = new Map<keyof InTransactionEvents, Listener<never>[]>();

  /** Without a unit of work, committed events are recorded at once (as outside a transaction). */
  constructor(private readonly unitOfWork?: UnitOfWork) {
    super();
  }

  /** A listener of an in-transaction event: its failure fails the emitter, as `OnEventInTransaction`'s. */
  on<K extends keyof InTransactionEvents>(name: K, listener: Listener<K>): void {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }

  async emitInTransaction<K extends keyof InTransactionEvents>(
    name: K,
    payload: InTransactionEvents[K],
  ): Promise<void> {
    this.inTransaction.push({ name, payload } as InTransactionEvent);
    for (const listener of this.listeners.get(name) ?? []) await (listener as Listener<K>)(payload);
  }

  emitAfterCommit<K extends keyof CommittedEvents>(name: K, payload: CommittedEvents[K]): void {
    const record = () => this.committed.push({ name, payload } as CommittedEvent);
    if (this.unitOfWork) this.unitOfWork.afterCommit(record);
    else record();
  }

  /** The payloads of the committed events of one name, oldest first. */
  committedOf<K extends keyof CommittedEvents>(name: K): CommittedEvents[K][] {
    return this.committed.flatMap((event) =>
      event.name === name ? [event.payload as CommittedEvents[K]] : [],
    );
  }
}
