import type { UnitOfWork } from 'src/platform/database/unit-of-work';
import { CommittedEvent, InProcessEvents, InTransactionEvent } from 'src/platform/events/in-process-events';

/** An event as emitted: its name and payload. */
export interface EmittedEvent {
  name: string;
  payload: unknown;
}

type Listener<P> = (payload: P) => unknown;

/**
 * In-process events that a test reads back. Committed events are recorded once the emitter's
 * transaction commits (through the unit of work, as the real port does) and never when it rolls
 * back; in-transaction events run the listeners a test registers, one by one, and are recorded as
 * they are emitted, and again among the committed once their transaction commits.
 */
export class RecordingInProcessEvents extends InProcessEvents {
  readonly committed: EmittedEvent[] = [];
  readonly inTransaction: EmittedEvent[] = [];
  private readonly listeners = new Map<string, Listener<never>[]>();

  /** Without a unit of work, committed events are recorded at once (as outside a transaction). */
  constructor(private readonly unitOfWork?: UnitOfWork) {
    super();
  }

  /** A listener of an in-transaction event: its failure fails the emitter, as `OnEventInTransaction`'s. */
  on<P>(event: InTransactionEvent<P>, listener: Listener<P>): void {
    this.listeners.set(event.name, [...(this.listeners.get(event.name) ?? []), listener]);
  }

  async emitInTransaction<P>(event: InTransactionEvent<P>, payload: P): Promise<void> {
    this.inTransaction.push({ name: event.name, payload });
    for (const listener of this.listeners.get(event.name) ?? []) await (listener as Listener<P>)(payload);
    this.recordOnCommit(event, payload);
  }

  emitAfterCommit<P>(event: CommittedEvent<P>, payload: P): void {
    this.recordOnCommit(event, payload);
  }

  private recordOnCommit<P>(event: CommittedEvent<P> | InTransactionEvent<P>, payload: P): void {
    const record = () => this.committed.push({ name: event.name, payload });
    if (this.unitOfWork) this.unitOfWork.afterCommit(record);
    else record();
  }

  /** The payloads of the events of one kind whose transaction committed, oldest first. */
  committedOf<P>(event: CommittedEvent<P> | InTransactionEvent<P>): P[] {
    return this.committed.flatMap((emitted) => (emitted.name === event.name ? [emitted.payload as P] : []));
  }
}
