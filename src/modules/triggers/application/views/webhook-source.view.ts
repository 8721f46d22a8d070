import type {
  WebhookProvider,
  WebhookRequestTriggerStatus,
  WebhookSignatureAlgorithm,
} from 'src/modules/triggers/domain/webhook-source';

/** A source as anyone who can see a view of it sees it (Dust's `WebhookSourceType`). */
export interface WebhookSourceSummaryView {
  id: number;
  sId: string;
  name: string;
  provider: WebhookProvider | null;
  createdAt: number;
  updatedAt: number;
}

/** A source as admins see it (Dust's `WebhookSourceForAdminType`), with its headers. */
export interface WebhookSourceForAdminView extends WebhookSourceSummaryView {
  /** The whole secret once, when the source is created; redacted after. */
  secret: string;
  signatureHeader: string;
  signatureAlgorithm: WebhookSignatureAlgorithm;
  timestampHeader: string | null;
  timestampToleranceSeconds: number;
  eventHeader: string | null;
  deliveryHeader: string | null;
  /** The path a sender posts to. */
  url: string;
}

/** A source shared to a space. */
export interface WebhookSourceViewView {
  id: number;
  sId: string;
  /** sId of the space */
  spaceId: string;
  createdAt: number;
  webhookSource: WebhookSourceSummaryView;
}

export interface WebhookSourceWithViewsView extends WebhookSourceForAdminView {
  views: WebhookSourceViewView[];
}

/** What a delivery did for one trigger. */
export interface WebhookRequestView {
  id: number;
  timestamp: number;
  status: WebhookRequestTriggerStatus;
  event: string | null;
  deliveryId: string | null;
  /** sId of the conversation it opened */
  conversationId: string | null;
  error: string | null;
}
