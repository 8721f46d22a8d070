import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { CommittedEvent, InProcessEvents, InTransactionEvent } from 'src/platform/events/in-process-events';

/** In-process events on @nestjs/event-emitter, which knows nothing of transactions: the unit of work does. */
@Injectable()
export class EventEmitterInProcessEvents extends InProcessEvents {
  constructor(
    private readonly emitter: EventEmitter2,
    private readonly unitOfWork: UnitOfWork,
  ) {
    super();
  }

  async emitInTransaction<P>(event: InTransactionEvent<P>, payload: P): Promise<void> {
    // One at a time, in the caller's transaction (called from here, they inherit its context).
    // Not emitAsync: its Promise.all rejects at the first failure while other listeners may still
    // be writing, and the rollback would race them on the transaction's connection.
    for (const listener of this.emitter.listeners(event.name) as ((payload: unknown) => unknown)[]) {
      await listener(payload);
    }
  }

  emitAfterCommit<P>(event: CommittedEvent<P>, payload: P): void {
    // After-commit callbacks run once the transaction has ended, so listeners never join it.
    this.unitOfWork.afterCommit(() => this.emitter.emit(event.name, payload));
  }
}
