import { OnEvent } from '@nestjs/event-emitter';

/**
 * An in-process event, named once by the context that emits it, with its payload type. The platform
 * only carries events: it knows no context's names or payloads.
 */
interface InProcessEvent<P> {
  readonly name: string;
  /** Never set: ties the payload type to the event both ways, so emitters and listeners agree on it. */
  readonly payloadType?: (payload: P) => P;
}

/**
 * An event emitted inside the transaction that makes the change: every listener is awaited, its
 * writes join that transaction, and its failure fails the emitter and undoes the change.
 */
export interface InTransactionEvent<P> extends InProcessEvent<P> {
  readonly delivery: 'in_transaction';
}

/**
 * An event that announces a committed change: emitted once the transaction commits, never when it
 * rolls back. Listeners run outside it, and a listener's failure is logged and undoes nothing.
 */
export interface CommittedEvent<P> extends InProcessEvent<P> {
  readonly delivery: 'after_commit';
}

/** Declares an in-transaction event; `name` is prefixed by the declaring context (`workspace.created`). */
export function inTransactionEvent<P>(name: string): InTransactionEvent<P> {
  return { name, delivery: 'in_transaction' };
}

/** Declares a committed event; `name` is prefixed by the declaring context (`conversation.message_posted`). */
export function committedEvent<P>(name: string): CommittedEvent<P> {
  return { name, delivery: 'after_commit' };
}

/** Port: the in-process events between contexts (a context never imports one that depends on it). */
export abstract class InProcessEvents {
  /** Runs the listeners one by one in the current transaction; the first failure stops them and is thrown. */
  abstract emitInTransaction<P>(event: InTransactionEvent<P>, payload: NoInfer<P>): Promise<void>;
  /** Emits once the current transaction commits (at once outside one); dropped if it rolls back. */
  abstract emitAfterCommit<P>(event: CommittedEvent<P>, payload: NoInfer<P>): void;
}

/** A listener method of event payload `P`: one that expects another payload does not compile. */
type ListenerOf<P> = (payload: P) => unknown;

/** Listens to an in-transaction event; errors propagate to the emitter, which rolls back. */
export function OnEventInTransaction<P>(event: InTransactionEvent<P>) {
  return (target: object, key: string | symbol, descriptor: { value?: ListenerOf<P> }): void => {
    OnEvent(event.name, { suppressErrors: false })(target, key, descriptor);
  };
}

/** Listens to a committed event; a failure is logged (the package's default) and goes no further. */
export function OnCommittedEvent<P>(event: CommittedEvent<P>) {
  return (target: object, key: string | symbol, descriptor: { value?: ListenerOf<P> }): void => {
    OnEvent(event.name, { suppressErrors: true })(target, key, descriptor);
  };
}
