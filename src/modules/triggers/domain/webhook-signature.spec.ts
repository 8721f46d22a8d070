import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import type { WebhookHeaders } from 'src/modules/triggers/domain/webhook-source';
import { readSignatureHeaders, verifySignature } from 'src/modules/triggers/domain/webhook-signature';

const secret = 'a-secret-of-enough-length';
const body = Buffer.from('{"action":"opened","number":7}');
const sign = (text: string | Buffer, key = secret) => createHmac('sha256', key).update(text).digest('hex');
const now = new Date('2026-11-26T08:00:00Z');
const github = {
  secret,
  signatureHeader: 'X-Hub-Signature-256',
  timestampHeader: null,
  timestampToleranceSeconds: 300,
  eventHeader: 'X-GitHub-Event',
  deliveryHeader: 'X-GitHub-Delivery',
};
const stamped = { ...github, signatureHeader: 'X-Signature', timestampHeader: 'X-Timestamp' };

/** Both steps, as a delivery goes through them: its headers, then its body. */
function checkSignature(
  source: WebhookHeaders & { secret: string },
  headers: Record<string, string>,
  delivered: Buffer,
  at: Date,
) {
  const read = readSignatureHeaders(source, headers, at);
  return read.ok ? verifySignature(source, read.signed, delivered) : read;
}

describe('checkSignature', () => {
  it("accepts GitHub's sha256=<hex> over the raw body, and the bare hex", () => {
    expect(checkSignature(github, { 'x-hub-signature-256': `sha256=${sign(body)}` }, body, now)).toEqual({
      ok: true,
    });
    expect(checkSignature(github, { 'x-hub-signature-256': sign(body).toUpperCase() }, body, now)).toEqual({
      ok: true,
    });
  });

  it('reads the same signature whatever the case of its hex and prefix, as a replay is recognised by it', () => {
    const read = (value: string) => readSignatureHeaders(github, { 'x-hub-signature-256': value }, now);
    expect(read(`SHA256=${sign(body).toUpperCase()}`)).toEqual(read(`sha256=${sign(body)}`));
    expect(read(sign(body))).toEqual({
      ok: true,
      signed: { signature: Buffer.from(sign(body), 'hex'), timestamp: null },
    });
  });

  it('refuses another body, another secret, a missing or malformed header, saying which', () => {
    const other = Buffer.from('{"action":"closed","number":7}');
    expect(checkSignature(github, { 'x-hub-signature-256': `sha256=${sign(body)}` }, other, now)).toEqual({
      ok: false,
      reason: 'The X-Hub-Signature-256 signature does not match the body.',
    });
    expect(
      checkSignature(
        github,
        { 'x-hub-signature-256': `sha256=${sign(body, 'another-secret-here')}` },
        body,
        now,
      ).ok,
    ).toBe(false);
    expect(checkSignature(github, {}, body, now)).toEqual({
      ok: false,
      reason: 'The X-Hub-Signature-256 header is missing.',
    });
    expect(checkSignature(github, { 'x-hub-signature-256': 'sha256=abc' }, body, now)).toEqual({
      ok: false,
      reason: 'The X-Hub-Signature-256 header must be "sha256=" followed by 64 hexadecimal digits.',
    });
    expect(checkSignature(github, { 'x-hub-signature-256': `sha1=${sign(body)}` }, body, now).ok).toBe(false);
  });

  it('signs "<timestamp>.<body>" when the source has a timestamp header, within its tolerance', () => {
    const ts = String(now.getTime() / 1000 - 299);
    const headers = { 'x-signature': sign(`${ts}.${body.toString()}`), 'x-timestamp': ts };
    expect(checkSignature(stamped, headers, body, now)).toEqual({ ok: true });
    // The body alone, without its timestamp, is not what was signed.
    expect(checkSignature(stamped, { ...headers, 'x-signature': sign(body) }, body, now).ok).toBe(false);
    // A replay of an old delivery, correctly signed for its time, is out of the tolerance.
    const old = String(now.getTime() / 1000 - 301);
    expect(
      checkSignature(
        stamped,
        { 'x-signature': sign(`${old}.${body.toString()}`), 'x-timestamp': old },
        body,
        now,
      ),
    ).toEqual({
      ok: false,
      reason: 'The X-Timestamp header is more than 300 seconds away from the current time.',
    });
    expect(checkSignature(stamped, { 'x-signature': sign(body) }, body, now)).toEqual({
      ok: false,
      reason: 'The X-Timestamp header must be seconds since the epoch.',
    });
  });
});
