import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { CommittedEvents, InProcessEvents, InTransactionEvents } from 'src/platform/events/in-process-events';

/** In-process events on @nestjs/event-emitter, which knows nothing of transactions: the unit of work does. */
@Injectable()
export class EventEmitterInProcessEvents extends InProcessEvents {
  constructor(
    private readonly emitter: EventEmitter2,
    private readonly unitOfWork: UnitOfWork,
  ) {
    super();
  }

  async emitInTransaction<K extends keyof InTransactionEvents>(
    name: K,
    payload: InTransactionEvents[K],
  ): Promise<void> {
    // One at a time, in the caller's transaction (called from here, they inherit its context).
    // Not emitAsync: its Promise.all rejects at the first failure while other listeners may still
    // be writing, and the rollback would race them on the transaction's connection.
    for (const listener of this.emitter.listeners(name) as ((payload: unknown) => unknown)[]) {
      await listener(payload);
    }
  }

  emitAfterCommit<K extends keyof CommittedEvents>(name: K, payload: CommittedEvents[K]): void {
    // After-commit callbacks run once the transaction has ended, so listeners never join it.
    this.unitOfWork.afterCommit(() => this.emitter.emit(name, payload));
  }
}
