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
}

export interface PendingDelivery extends NewDelivery {
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

/** An outcome as the trigger's list shows it, with its delivery's details. */
export interface WebhookOutcomeListing {
  id: number;
  status: WebhookRequestTriggerStatus;
  createdAt: Date;
  event: string | null;
  deliveryId: string | null;
  conversationSId: string | null;
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
  /** Enabled webhook triggers listening to the source through any of its views. */
  abstract enabledTriggersOfSource(workspaceId: number, webhookSourceId: number): Promise<Trigger[]>;

  /**
   * Stores a delivery; null when the source already has one with this delivery id (a replay) or
   * the source is gone.
   */
  abstract recordDelivery(delivery: NewDelivery): Promise<number | null>;
  /** The oldest delivery not processed yet, locked (FOR UPDATE SKIP LOCKED) for the transaction. */
  abstract claimPendingDelivery(): Promise<PendingDelivery | null>;
  abstract hasPendingDeliveries(): Promise<boolean>;
  /** Marks a delivery done and drops its payload. */
  abstract completeDelivery(
    workspaceId: number,
    id: number,
    outcome: { status: 'processed' | 'failed'; error: string | null },
  ): Promise<void>;

  /** Serialises the firings of one trigger until the transaction ends (its daily limit). */
  abstract lockTrigger(workspaceId: number, triggerId: number): Promise<void>;
  abstract countStartedSince(workspaceId: number, triggerId: number, since: Date): Promise<number>;
  abstract recordOutcome(outcome: WebhookOutcome): Promise<void>;
  /** A trigger's outcomes, newest first, those before the outcome `beforeId` when given. */
  abstract listOutcomes(
    workspaceId: number,
    triggerId: number,
    page: { limit: number; beforeId: number | null },
  ): Promise<WebhookOutcomeListing[]>;
}
