import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookHeaders } from 'src/modules/triggers/domain/webhook-source';

export type Refusal = { ok: false; reason: string };

/** What a delivery's headers say was signed: read, and refused when malformed, before its body. */
export interface SignedHeaders {
  /** The HMAC-SHA256 as sent (32 bytes, whatever the case of its hex or its `sha256=` prefix). */
  signature: Buffer;
  /** The time of signing, for a source with a timestamp header. */
  timestamp: string | null;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/** A header's one value: Node joins repeated headers with ", ", which no signature contains. */
export function headerValue(headers: Record<string, string | string[] | undefined>, name: string) {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Reads a delivery's signature and, when the source has a timestamp header, its time, which must
 * be within the tolerance of `now`. A refusal says what was wrong without saying what was expected.
 */
export function readSignatureHeaders(
  source: WebhookHeaders,
  headers: Record<string, string | string[] | undefined>,
  now: Date,
): { ok: true; signed: SignedHeaders } | Refusal {
  const given = headerValue(headers, source.signatureHeader);
  if (given === undefined || given === '') {
    return { ok: false, reason: `The ${source.signatureHeader} header is missing.` };
  }
  const hex = given.trim().replace(/^sha256=/i, '');
  if (!HEX_SHA256.test(hex)) {
    return {
      ok: false,
      reason: `The ${source.signatureHeader} header must be "sha256=" followed by 64 hexadecimal digits.`,
    };
  }
  const signature = Buffer.from(hex, 'hex');
  if (source.timestampHeader === null) return { ok: true, signed: { signature, timestamp: null } };
  const timestamp = headerValue(headers, source.timestampHeader)?.trim();
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) {
    return { ok: false, reason: `The ${source.timestampHeader} header must be seconds since the epoch.` };
  }
  const skew = Math.abs(now.getTime() / 1000 - Number(timestamp));
  if (skew > source.timestampToleranceSeconds) {
    return {
      ok: false,
      reason: `The ${source.timestampHeader} header is more than ${source.timestampToleranceSeconds} seconds away from the current time.`,
    };
  }
  return { ok: true, signed: { signature, timestamp } };
}

/**
 * Checks the HMAC-SHA256 of the raw body under the source's secret, preceded by `<timestamp>.`
 * when the headers carried one, against the signature they carried, in constant time.
 */
export function verifySignature(
  source: WebhookHeaders & { secret: string },
  signed: SignedHeaders,
  body: Buffer,
): { ok: true } | Refusal {
  const hmac = createHmac('sha256', source.secret);
  if (signed.timestamp !== null) hmac.update(`${signed.timestamp}.`);
  if (!timingSafeEqual(hmac.update(body).digest(), signed.signature)) {
    return { ok: false, reason: `The ${source.signatureHeader} signature does not match the body.` };
  }
  return { ok: true };
}
