import { Injectable } from '@nestjs/common';
import { ExpiringCache } from 'src/platform/cache/expiring-cache';
import { Clock } from 'src/platform/clock/clock';
import { InProcessEvents } from 'src/platform/events/in-process-events';
import { DomainError, InvalidRequestError, RateLimitError } from 'src/platform/errors/domain-error';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { clientAddressKey } from 'src/platform/throttling/client-address';
import { TokenBuckets } from 'src/platform/throttling/token-buckets';
import type { WebhookSource } from 'src/modules/triggers/domain/webhook-source';
import { WebhookRepository } from 'src/modules/triggers/application/ports/webhook.repository';
import { WebhookReceived } from 'src/modules/triggers/application/triggers.events';
import { HEADER_VALUE_MAX } from 'src/modules/triggers/domain/webhook-source';
import {
  SignedHeaders,
  headerValue,
  readSignatureHeaders,
  verifySignature,
} from 'src/modules/triggers/domain/webhook-signature';
import { TriggersConfig } from 'src/modules/triggers/triggers.config';

export interface DeliveryReceipt {
  /** False for a replay (a delivery id or signed bytes the source already sent): nothing more is done. */
  accepted: boolean;
}

const MINUTE_MS = 60_000;
/** A source is looked up once per process every few seconds, not on every delivery. */
export const SOURCE_CACHE_TTL_MS = 4_000;
const SOURCE_CACHE_MAX_ENTRIES = 10_000;

type Headers = Record<string, string | string[] | undefined>;

const seconds = (ms: number) => Math.ceil(ms / 1000);

function sourceNotFound(workspace: string, sourceSId: string): DomainError {
  return new DomainError(
    'webhook_source_not_found',
    `Webhook source ${sourceSId} not found in workspace ${workspace}.`,
  );
}

/**
 * GitHub sends its delivery id with every delivery (redeliveries keep it): one without it did not
 * come from GitHub as it is, and its id could not tell a replay.
 */
function refuseWithoutDeliveryId(source: WebhookSource, headers: Headers): void {
  if (source.provider !== 'github' || source.deliveryHeader === null) return;
  if (headerValue(headers, source.deliveryHeader)) return;
  throw new InvalidRequestError(
    `The ${source.deliveryHeader} header is missing; GitHub sends it with every delivery.`,
  );
}

/** A request let through to have its body read: its signature headers, and whom it counts against. */
export interface AdmittedDelivery {
  signed: SignedHeaders;
  addressKey: string;
}

/**
 * The public hook: a delivery is stored only once its signature holds, within the source's rate,
 * and once per delivery id and per signature; it is processed after the answer
 * (WebhookFiringService). Nothing is written for an unknown source, a bad signature or a refused
 * body. Unverified requests are bounded per client address and per source: each takes a token
 * before its body is read, given back once its signature holds.
 */
@Injectable()
export class WebhookDeliveriesService {
  private readonly perSource: TokenBuckets<number>;
  private readonly unverifiedPerAddress: TokenBuckets<string>;
  private readonly unverifiedPerSource: TokenBuckets<number>;
  private readonly sources = new ExpiringCache<string, WebhookSource>(
    SOURCE_CACHE_TTL_MS,
    SOURCE_CACHE_MAX_ENTRIES,
  );

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly config: TriggersConfig,
    private readonly clock: Clock,
    private readonly events: InProcessEvents,
    private readonly log: OperatorLog,
  ) {
    this.perSource = new TokenBuckets(config.webhookSourceRequestsPerMinute, MINUTE_MS);
    this.unverifiedPerAddress = new TokenBuckets(config.webhookUnverifiedPerAddressPerMinute, MINUTE_MS);
    this.unverifiedPerSource = new TokenBuckets(config.webhookUnverifiedPerSourcePerMinute, MINUTE_MS);
  }

  get bodyLimitBytes(): number {
    return this.config.webhookBodyLimitBytes;
  }

  /**
   * The source the public route names: unknown workspace or source alike are 404. Kept a few
   * seconds in process; this process forgets it when it changes, others within SOURCE_CACHE_TTL_MS.
   */
  async sourceFor(workspaceSId: string, sourceSId: string): Promise<WebhookSource> {
    const key = `${workspaceSId}/${sourceSId}`;
    const cached = this.sources.get(key, Date.now());
    if (cached) return cached;
    const source = await this.webhooks.findSourceForDelivery(workspaceSId, sourceSId);
    if (!source) {
      this.sources.delete(key);
      throw sourceNotFound(workspaceSId, sourceSId);
    }
    this.sources.set(key, source, Date.now());
    return source;
  }

  /** Drops a changed or deleted source from this process's cache. */
  forget(sourceSId: string): void {
    this.sources.deleteWhere((source) => source.sId === sourceSId);
  }

  /**
   * Before anything else, the source looked up included: the limit on unverified requests of the
   * client's address (429). Answers the key the request counts under until its signature holds.
   */
  admitAddress(address: string | undefined): string {
    const addressKey = clientAddressKey(address);
    const wait = this.unverifiedPerAddress.take(addressKey, this.clock.now().getTime());
    if (wait > 0) {
      throw new RateLimitError(
        `Too many webhook requests that failed verification from this address (at most ${this.config.webhookUnverifiedPerAddressPerMinute} a minute); retry in ${seconds(wait)} s.`,
        seconds(wait),
      );
    }
    return addressKey;
  }

  /**
   * Before the body is read: the limit on unverified requests of the source (429), then the
   * signature headers (401) and the delivery id GitHub always sends (400).
   */
  admit(source: WebhookSource, headers: Headers, addressKey: string): AdmittedDelivery {
    const now = this.clock.now();
    const sourceWait = this.unverifiedPerSource.take(source.id, now.getTime());
    if (sourceWait > 0) {
      this.unverifiedPerAddress.refund(addressKey);
      throw new RateLimitError(
        `Too many webhook requests that failed verification for webhook source ${source.sId} (at most ${this.config.webhookUnverifiedPerSourcePerMinute} a minute); retry in ${seconds(sourceWait)} s.`,
        seconds(sourceWait),
      );
    }
    const read = readSignatureHeaders(source, headers, now);
    if (!read.ok) throw this.refused(source, read.reason);
    refuseWithoutDeliveryId(source, headers);
    return { signed: read.signed, addressKey };
  }

  /**
   * The signature over the raw body (401); once it holds, the request no longer counts as
   * unverified, and the source's rate of signed deliveries applies (429). Answers the verified
   * signature, which the delivery is remembered by.
   */
  authenticate(source: WebhookSource, admitted: AdmittedDelivery, body: Buffer): Buffer {
    const check = verifySignature(source, admitted.signed, body);
    if (!check.ok) throw this.refused(source, check.reason);
    this.unverifiedPerAddress.refund(admitted.addressKey);
    this.unverifiedPerSource.refund(source.id);
    const wait = this.perSource.take(source.id, this.clock.now().getTime());
    if (wait > 0) {
      throw new RateLimitError(
        `Webhook source ${source.sId} takes at most ${this.config.webhookSourceRequestsPerMinute} deliveries a minute; retry in ${seconds(wait)} s.`,
        seconds(wait),
      );
    }
    return admitted.signed.signature;
  }

  private refused(source: WebhookSource, reason: string): DomainError {
    this.log.warn(WebhookDeliveriesService.name, { source: source.sId }, 'Webhook delivery refused');
    return new DomainError('webhook_source_auth_error', reason);
  }

  /**
   * Stores an authenticated delivery (its body checked JSON) for the worker, once per delivery id
   * and once per signature: the same signed bytes never fire twice, whatever headers came with them.
   */
  async store(
    source: WebhookSource,
    headers: Headers,
    body: Buffer,
    signature: Buffer,
  ): Promise<DeliveryReceipt> {
    const cut = (name: string | null) => {
      const value = name === null ? undefined : headerValue(headers, name);
      return value ? value.slice(0, HEADER_VALUE_MAX) : null;
    };
    const id = await this.webhooks.recordDelivery({
      workspaceId: source.workspaceId,
      webhookSourceId: source.id,
      deliveryId: cut(source.deliveryHeader),
      event: cut(source.eventHeader),
      payload: body.toString('utf8'),
      signature,
    });
    if (id === null) {
      if (await this.webhooks.sourceExists(source.workspaceId, source.id)) return { accepted: false };
      this.forget(source.sId);
      throw new DomainError('webhook_source_not_found', `Webhook source ${source.sId} was deleted.`);
    }
    this.events.emitAfterCommit(WebhookReceived, {});
    return { accepted: true };
  }
}
