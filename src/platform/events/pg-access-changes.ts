import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { ACCESS_CHANGES_CHANNEL, AccessChange, AccessChanges } from 'src/platform/events/access-changes';
import { EventDoorbell } from 'src/platform/events/event-doorbell';

type Listener = (change: AccessChange) => void;

/**
 * Access changes on a NOTIFY channel of their own, sent in the changing transaction: PostgreSQL
 * delivers it on commit, in commit order with the event log's notices, to the doorbell's LISTEN
 * connection of every process, this one included. Hearing its own changes there rather than from
 * the committing code keeps that order: a change always arrives before the events written after it.
 */
@Injectable()
export class PgAccessChanges extends AccessChanges {
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly db: TypeormUnitOfWork,
    doorbell: EventDoorbell,
  ) {
    super();
    doorbell.onAccessNotice((payload) => this.onNotice(payload));
  }

  async announce(change: AccessChange): Promise<void> {
    await this.db
      .manager()
      .query('SELECT pg_notify($1::text, $2::text)', [ACCESS_CHANGES_CHANNEL, JSON.stringify(change)]);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `null`: the connection was lost and is back, so notices may have been missed. */
  private onNotice(payload: string | null): void {
    let change: AccessChange;
    try {
      change = payload === null ? { kind: 'unknown' } : (JSON.parse(payload) as AccessChange);
    } catch {
      return;
    }
    for (const listener of this.listeners) listener(change);
  }
}
