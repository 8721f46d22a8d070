/** Senders whose headers a source may take by name instead of listing them. */
export type WebhookProvider = 'github';

/** Dust's `signatureAlgorithm`; HMAC-SHA256 is the one this service checks. */
export type WebhookSignatureAlgorithm = 'sha256';

/**
 * Where a sender puts what the receiver checks: the HMAC of the body under `signatureHeader`
 * (`sha256=<hex>` as GitHub sends it, or the bare hex), the time it signed under `timestampHeader`
 * (then the signed text is `<timestamp>.<body>`), its event name and its delivery id.
 */
export interface WebhookHeaders {
  signatureHeader: string;
  timestampHeader: string | null;
  timestampToleranceSeconds: number;
  eventHeader: string | null;
  deliveryHeader: string | null;
}

export interface WebhookSource extends WebhookHeaders {
  id: number;
  sId: string;
  workspaceId: number;
  name: string;
  provider: WebhookProvider | null;
  signatureAlgorithm: WebhookSignatureAlgorithm;
  secret: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A source shared to a space: triggers of that space's readers listen to it through the view. */
export interface WebhookSourceView {
  id: number;
  sId: string;
  workspaceId: number;
  webhookSourceId: number;
  spaceId: number;
  createdAt: Date;
}

/** Headers a GitHub source uses unless told otherwise. */
export const GITHUB_HEADERS: Omit<WebhookHeaders, 'timestampToleranceSeconds'> = {
  signatureHeader: 'X-Hub-Signature-256',
  timestampHeader: null,
  eventHeader: 'X-GitHub-Event',
  deliveryHeader: 'X-GitHub-Delivery',
};

/** The header a source without a provider signs with unless told otherwise. */
export const GENERIC_SIGNATURE_HEADER = 'X-Webhook-Signature';
export const DEFAULT_TIMESTAMP_TOLERANCE_SECONDS = 300;
export const SOURCE_NAME_MAX = 255;
/** A given secret must be long enough that guessing it is out of reach. */
export const SECRET_MIN = 16;
export const SECRET_MAX = 256;
/** Long is not enough: sixteen spaces or one letter repeated is guessed at once. */
export const SECRET_MIN_DISTINCT = 8;
const SECRET_RULE =
  `a secret needs at least ${SECRET_MIN_DISTINCT} different characters, ` +
  'without control characters and without whitespace at either end';

/** Why a given secret is refused (its length is the DTO's), or null when it is taken. */
export function secretProblem(secret: string): string | null {
  const weak =
    new Set(secret).size < SECRET_MIN_DISTINCT || /\p{Cc}/u.test(secret) || /^\s|\s$/u.test(secret);
  return weak ? SECRET_RULE : null;
}
/** Delivery ids and event names longer than this are cut before they are stored. */
export const HEADER_VALUE_MAX = 255;

/** Outcomes of a delivery for one trigger, as Dust names them. */
export type WebhookRequestTriggerStatus =
  'workflow_start_succeeded' | 'workflow_start_failed' | 'not_matched' | 'rate_limited';

/** The secret as shown after its creation: enough to tell two apart, not to sign. */
export function redactedSecret(secret: string): string {
  return `••••${secret.slice(-4)}`;
}
