import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookHeaders } from 'src/modules/triggers/domain/webhook-source';

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/** A header's one value: Node joins repeated headers with ", ", which no signature contains. */
export function headerValue(headers: Record<string, string | string[] | undefined>, name: string) {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks a delivery's HMAC-SHA256 over its raw body (preceded by `<timestamp>.` when the source
 * has a timestamp header, whose time must be within the tolerance of `now`). The comparison is
 * constant-time; a refusal says what was wrong without saying what was expected.
 */
export function checkSignature(
  source: WebhookHeaders & { secret: string },
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
  now: Date,
): SignatureCheck {
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
  const hmac = createHmac('sha256', source.secret);
  if (source.timestampHeader !== null) {
    const timestamp = headerValue(headers, source.timestampHeader);
    if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp.trim())) {
      return { ok: false, reason: `The ${source.timestampHeader} header must be seconds since the epoch.` };
    }
    const skew = Math.abs(now.getTime() / 1000 - Number(timestamp.trim()));
    if (skew > source.timestampToleranceSeconds) {
      return {
        ok: false,
        reason: `The ${source.timestampHeader} header is more than ${source.timestampToleranceSeconds} seconds away from the current time.`,
      };
    }
    hmac.update(`${timestamp.trim()}.`);
  }
  const expected = hmac.update(body).digest();
  if (!timingSafeEqual(expected, Buffer.from(hex, 'hex'))) {
    return { ok: false, reason: `The ${source.signatureHeader} signature does not match the body.` };
  }
  return { ok: true };
}
