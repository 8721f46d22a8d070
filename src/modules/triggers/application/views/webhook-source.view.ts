import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  WebhookProvider,
  WebhookRequestTriggerStatus,
  WebhookSignatureAlgorithm,
  WebhookSource,
  WebhookSourceView,
  redactedSecret,
} from 'src/modules/triggers/domain/webhook-source';

/** A source as anyone who can see a view of it sees it (Dust's `WebhookSourceType`). */
@ApiSchema({ name: 'WebhookSourceSummary' })
export class WebhookSourceSummaryView {
  id!: number;
  sId!: string;
  name!: string;
  @ApiProperty({ enum: ['github'], nullable: true, type: String })
  provider!: WebhookProvider | null;
  createdAt!: number;
  updatedAt!: number;
}

/** A source as admins see it (Dust's `WebhookSourceForAdminType`), with its headers. */
export class WebhookSourceForAdminView extends WebhookSourceSummaryView {
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
}

/** A source shared to a space. */
@ApiSchema({ name: 'WebhookSourceView' })
export class WebhookSourceViewView {
  id!: number;
  sId!: string;
  /** sId of the space */
  spaceId!: string;
  createdAt!: number;
  webhookSource!: WebhookSourceSummaryView;
}

@ApiSchema({ name: 'WebhookSourceWithViews' })
export class WebhookSourceWithViewsView extends WebhookSourceForAdminView {
  views!: WebhookSourceViewView[];
}

export class WebhookSourcesResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  webhookSourcesWithViews!: WebhookSourceWithViewsView[];
}

export class WebhookSourceResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  webhookSource!: WebhookSourceWithViewsView;
}

export class WebhookSourceViewsResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  views!: WebhookSourceViewView[];
}

export class SpaceWebhookSourceViewsResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  webhookSourceViews!: WebhookSourceViewView[];
}

export class WebhookSourceViewResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  webhookSourceView!: WebhookSourceViewView;
}

export class SuccessResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

export class HookResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  /** False for a replay of a delivery id already received: it is not processed again */
  accepted!: boolean;
}

/** What a delivery did for one trigger. */
@ApiSchema({ name: 'WebhookRequest' })
export class WebhookRequestView {
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
  requests!: WebhookRequestView[];
  /** Pass as `cursor` for the next page; null on the last */
  nextCursor!: string | null;
}

/** The path a sender posts a source's deliveries to. */
export function hookPath(workspaceSId: string, sourceSId: string): string {
  return `/api/v1/w/${workspaceSId}/triggers/hooks/${sourceSId}`;
}

export const renderWebhookSourceSummary = (source: WebhookSource): WebhookSourceSummaryView => ({
  id: source.id,
  sId: source.sId,
  name: source.name,
  provider: source.provider,
  createdAt: source.createdAt.getTime(),
  updatedAt: source.updatedAt.getTime(),
});

/** The secret whole only when `showSecret` (the answer that creates the source). */
export const renderWebhookSourceForAdmin = (
  source: WebhookSource,
  workspaceSId: string,
  { showSecret }: { showSecret: boolean },
): WebhookSourceForAdminView => ({
  ...renderWebhookSourceSummary(source),
  secret: showSecret ? source.secret : redactedSecret(source.secret),
  signatureHeader: source.signatureHeader,
  signatureAlgorithm: source.signatureAlgorithm,
  timestampHeader: source.timestampHeader,
  timestampToleranceSeconds: source.timestampToleranceSeconds,
  eventHeader: source.eventHeader,
  deliveryHeader: source.deliveryHeader,
  url: hookPath(workspaceSId, source.sId),
});

export const renderWebhookSourceView = (
  view: WebhookSourceView,
  spaceSId: string,
  source: WebhookSource,
): WebhookSourceViewView => ({
  id: view.id,
  sId: view.sId,
  spaceId: spaceSId,
  createdAt: view.createdAt.getTime(),
  webhookSource: renderWebhookSourceSummary(source),
});
