import type { Trigger } from 'src/modules/triggers/domain/trigger';
import type {
  WebhookRequestTriggerStatus,
  WebhookSource,
  WebhookSourceView,
} from 'src/modules/triggers/domain/webhook-source';

export type NewWebhookSource = Omit<WebhookSource, 'id' | 'createdAt' | 'updatedAt'>;
export type WebhookSourceChanges = Partial<
  Pick<
    WebhookSource,
    | 'name'
    | 'signatureHeader'
    | 'timestampHeader'
    | 'timestampToleranceSeconds'
    | 'eventHeader'
    | 'deliveryHeader'
  >
>;
export type NewWebhookSourceView = Omit<WebhookSourceView, 'id' | 'createdAt'>;

/** A signed delivery as the route stores it, before it is processed. */
export interface NewDelivery {
  workspaceId: number;
  webhookSourceId: number;
  deliveryId: string | null;
  event: string | null;
  payload: string;
  /** The verified signature: the same signed bytes always have the same one. */
  signature: Buffer;
}

export interface PendingDelivery extends Omit<NewDelivery, 'signature'> {
  id: number;
  receivedAt: Date;
}

export interface WebhookOutcome {
  workspaceId: number;
  webhookRequestId: number;
  triggerId: number;
  status: WebhookRequestTriggerStatus;
  conversationId: number | null;
  error: string | null;
}

/** An enabled webhook trigger and the source it listens to. */
export interface ListeningTrigger {
  webhookSourceId: number;
  trigger: Trigger;
}

/** An outcome as the trigger's list shows it, with its delivery's details. */
export interface WebhookOutcomeListing {
  id: number;
  status: WebhookRequestTriggerStatus;
  createdAt: Date;
  event: string | null;
  deliveryId: string | null;
  /** The conversation's row id. */
  conversationId: number | null;
  error: string | null;
}

export abstract class WebhookRepository {
  abstract createSource(source: NewWebhookSource): Promise<WebhookSource>;
  abstract listSources(workspaceId: number): Promise<WebhookSource[]>;
  abstract findSource(workspaceId: number, sId: string): Promise<WebhookSource | null>;
  /** The source named by the public route: its workspace's sId and its own. */
  abstract findSourceForDelivery(workspaceSId: string, sourceSId: string): Promise<WebhookSource | null>;
  abstract sourceExists(workspaceId: number, id: number): Promise<boolean>;
  abstract sourceNameTaken(workspaceId: number, name: string, exceptId: number | null): Promise<boolean>;
  abstract updateSource(source: WebhookSource, changes: WebhookSourceChanges): Promise<WebhookSource>;
  abstract deleteSource(workspaceId: number, id: number): Promise<void>;

  /** Null when the source is already shared to that space. */
  abstract createView(view: NewWebhookSourceView): Promise<WebhookSourceView | null>;
  abstract listViews(
    workspaceId: number,
    where: { webhookSourceId?: number; spaceId?: number; ids?: number[] },
  ): Promise<WebhookSourceView[]>;
  abstract findView(workspaceId: number, sId: string): Promise<WebhookSourceView | null>;
  abstract deleteView(workspaceId: number, id: number): Promise<void>;
  /** Triggers listening through these views, enabled or not. */
  abstract countTriggersOnViews(workspaceId: number, viewIds: number[]): Promise<number>;
  /**
   * Enabled webhook triggers listening to these sources (each in its workspace) through any of
   * their views, by trigger id.
   */
  abstract enabledTriggersOfSources(
    sources: { workspaceId: number; webhookSourceId: number }[],
  ): Promise<ListeningTrigger[]>;

  /**
   * Stores a delivery; null when the source already has one with this delivery id or this
   * signature (a replay), or the source is gone.
   */
  abstract recordDelivery(delivery: NewDelivery): Promise<number | null>;
  /**
   * Up to `limit` deliveries not processed yet, oldest first, locked (FOR UPDATE SKIP LOCKED) for
   * the transaction: another transaction claims others.
   */
  abstract claimPendingDeliveries(limit: number): Promise<PendingDelivery[]>;
  /** This delivery, if still not processed and not claimed by another transaction, locked likewise. */
  abstract claimPendingDelivery(workspaceId: number, id: number): Promise<PendingDelivery | null>;
  abstract hasPendingDeliveries(): Promise<boolean>;
  /** Marks deliveries done with one outcome and drops their payloads. */
  abstract completeDeliveries(
    deliveries: { workspaceId: number; id: number }[],
    outcome: { status: 'processed' | 'failed'; error: string | null },
  ): Promise<void>;

  /**
   * Serialises the firings of these triggers until the transaction ends (their daily limits). The
   * locks are taken in one order whatever the order given: two transactions never wait in a circle.
   */
  abstract lockTriggers(triggers: { workspaceId: number; id: number }[]): Promise<void>;
  abstract countStartedSince(workspaceId: number, triggerId: number, since: Date): Promise<number>;
  /** Stores outcomes in the given order (their ids follow it); one already stored is kept. */
  abstract recordOutcomes(outcomes: WebhookOutcome[]): Promise<void>;
  /** A trigger's outcomes, newest first, those before the outcome `beforeId` when given. */
  abstract listOutcomes(
    workspaceId: number,
    triggerId: number,
    page: { limit: number; beforeId: number | null },
  ): Promise<WebhookOutcomeListing[]>;
}
