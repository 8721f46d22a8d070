import { ApiProperty } from '@nestjs/swagger';
import type * as views from 'src/modules/triggers/application/views/webhook-source.view';
import type {
  WebhookProvider,
  WebhookRequestTriggerStatus,
  WebhookSignatureAlgorithm,
} from 'src/modules/triggers/domain/webhook-source';

export class WebhookSourceSummary implements views.WebhookSourceSummaryView {
  id!: number;
  sId!: string;
  name!: string;
  @ApiProperty({ enum: ['github'], nullable: true, type: String })
  provider!: WebhookProvider | null;
  createdAt!: number;
  updatedAt!: number;
}

export class WebhookSourceView implements views.WebhookSourceViewView {
  id!: number;
  sId!: string;
  /** sId of the space */
  spaceId!: string;
  createdAt!: number;
  webhookSource!: WebhookSourceSummary;
}

export class WebhookSourceWithViews implements views.WebhookSourceWithViewsView {
  id!: number;
  sId!: string;
  name!: string;
  @ApiProperty({ enum: ['github'], nullable: true, type: String })
  provider!: WebhookProvider | null;
  createdAt!: number;
  updatedAt!: number;
  /** The whole secret in the answer that creates the source; redacted (`••••` and its last 4 characters) after */
  secret!: string;
  signatureHeader!: string;
  @ApiProperty({ enum: ['sha256'] })
  signatureAlgorithm!: WebhookSignatureAlgorithm;
  timestampHeader!: string | null;
  timestampToleranceSeconds!: number;
  eventHeader!: string | null;
  deliveryHeader!: string | null;
  /** The path the sender posts to: `/api/v1/w/{wId}/triggers/hooks/{sId}` */
  url!: string;
  views!: WebhookSourceView[];
}

export class WebhookSourcesResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  webhookSourcesWithViews!: WebhookSourceWithViews[];
}

export class WebhookSourceResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  webhookSource!: WebhookSourceWithViews;
}

export class WebhookSourceViewsResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  views!: WebhookSourceView[];
}

export class SpaceWebhookSourceViewsResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  webhookSourceViews!: WebhookSourceView[];
}

export class WebhookSourceViewResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  webhookSourceView!: WebhookSourceView;
}

export class SuccessResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

export class HookResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  /** False for a replay of a delivery id already received: it is not processed again */
  accepted!: boolean;
}

export class WebhookRequest implements views.WebhookRequestView {
  id!: number;
  /** When the delivery was processed for this trigger, ms since the epoch */
  timestamp!: number;
  @ApiProperty({ enum: ['workflow_start_succeeded', 'workflow_start_failed', 'not_matched', 'rate_limited'] })
  status!: WebhookRequestTriggerStatus;
  event!: string | null;
  deliveryId!: string | null;
  /** sId of the conversation it opened, when the key reads conversations and the caller can read it */
  conversationId!: string | null;
  /** Why it did not match, was limited or failed */
  error!: string | null;
}

export class WebhookRequestsResponse {
  requests!: WebhookRequest[];
  /** Pass as `cursor` for the next page; null on the last */
  nextCursor!: string | null;
}
