import { IsOptional, IsString, Matches } from 'class-validator';
import { Flag, Integer, OneOf, SidRef, Text } from 'src/platform/http/input-fields';
import { SpaceParams, WorkspaceParams } from 'src/platform/http/route-params';
import {
  SECRET_MAX,
  SECRET_MIN,
  SOURCE_NAME_MAX,
  WebhookProvider,
} from 'src/modules/triggers/domain/webhook-source';

/** An HTTP header name (RFC 9110 token characters). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;
const HEADER_NAME_MESSAGE = 'must be an HTTP header name (letters, digits and -, at most 128)';

export class WebhookSourceHeadersDto {
  /**
   * Header carrying the HMAC-SHA256 of the body, `sha256=<hex>` or the bare hex (GitHub's by default for `provider: "github"`, else `X-Webhook-Signature`)
   * @example X-Hub-Signature-256
   */
  @IsOptional()
  @Matches(HEADER_NAME, { message: `signatureHeader ${HEADER_NAME_MESSAGE}` })
  signatureHeader?: string;

  /**
   * Header carrying the time of signing, seconds since the epoch; when set, the signed text is `<timestamp>.<body>`
   * @example X-Webhook-Timestamp
   */
  @IsOptional()
  @Matches(HEADER_NAME, { message: `timestampHeader ${HEADER_NAME_MESSAGE}` })
  timestampHeader?: string | null;

  /** Seconds a timestamp may be away from the current time (default 300) */
  @Integer({ min: 1, max: 86_400, presence: 'optional' })
  timestampToleranceSeconds?: number;

  /**
   * Header naming the event, matched by a trigger's `configuration.event`
   * @example X-GitHub-Event
   */
  @IsOptional()
  @Matches(HEADER_NAME, { message: `eventHeader ${HEADER_NAME_MESSAGE}` })
  eventHeader?: string | null;

  /**
   * Header carrying the sender's delivery id: a second delivery with the same id, or the same signed bytes, is a replay
   * @example X-GitHub-Delivery
   */
  @IsOptional()
  @Matches(HEADER_NAME, { message: `deliveryHeader ${HEADER_NAME_MESSAGE}` })
  deliveryHeader?: string | null;
}

export class CreateWebhookSourceDto extends WebhookSourceHeadersDto {
  /** @example GitHub: acme/api */
  @Text({ min: 1, max: SOURCE_NAME_MAX })
  name!: string;

  /** `github` fills in GitHub's headers; null for any other sender */
  @OneOf(['github'], { presence: 'optional' })
  provider?: WebhookProvider | null;

  /**
   * The signing secret, when the sender already has one: 16 to 256 characters, at least 8 of them different, no control
   * characters and no whitespace at either end. Generated (and answered once) otherwise
   */
  @Text({ min: SECRET_MIN, max: SECRET_MAX, presence: 'optional' })
  secret?: string | null;

  /** Only `sha256` (HMAC-SHA256) */
  @OneOf(['sha256'], { presence: 'optional' })
  signatureAlgorithm?: 'sha256';

  /** Also share the source to the global space */
  @Flag({ presence: 'optional' })
  includeGlobal?: boolean;
}

export class UpdateWebhookSourceDto extends WebhookSourceHeadersDto {
  /** @example GitHub: acme/web */
  @Text({ min: 1, max: SOURCE_NAME_MAX, presence: 'optional' })
  name?: string;
}

export class WebhookSourceParams extends WorkspaceParams {
  /**
   * sId of the webhook source
   * @example whs_Hk3mQ8xN2p
   */
  @IsString()
  webhookSourceId!: string;
}

export class ShareWebhookSourceDto {
  /**
   * sId of the webhook source to share to the space
   * @example whs_Hk3mQ8xN2p
   */
  @SidRef()
  webhookSourceId!: string;
}

export class WebhookSourceViewParams extends SpaceParams {
  /**
   * sId of the webhook source view
   * @example whv_Rt5nB2kL9w
   */
  @IsString()
  webhookSourceViewId!: string;
}

export class HookParams extends WorkspaceParams {
  /**
   * sId of the webhook source
   * @example whs_Hk3mQ8xN2p
   */
  @IsString()
  webhookSourceSId!: string;
}
