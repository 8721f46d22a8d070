import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { IncomingHttpHeaders, request } from 'node:http';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { World, WorkspaceFixture, api } from 'test/support/world';

interface Source {
  sId: string;
  secret: string;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: unknown;
}

interface Post {
  /** The loopback address the request comes from: each is a client of its own. */
  from: string;
  headers: Record<string, string>;
  body: string;
  /** Announces more bytes than it sends, and never sends them. */
  unfinished?: boolean;
}

const PER_ADDRESS = 4;
const PER_SOURCE = 6;
const sign = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');
const BODY = JSON.stringify({ action: 'opened', padding: 'x'.repeat(2000) });

describe('triggers: unauthenticated webhook requests cost little and are bounded', () => {
  let t: TestApp;
  let baseUrl: string;
  let world: World;
  let a: WorkspaceFixture;
  let sources = 0;

  const createSource = async (extra: Record<string, unknown> = { provider: 'github' }) => {
    const res = await api(t, a.admin)
      .post(paths.webhookSources(a.workspace.sId))
      .send({ name: `Unverified ${++sources}`, ...extra })
      .expect(201);
    return res.body.webhookSource as Source;
  };
  /** Answered as soon as the service answers, whether or not it read the body. */
  const post = (source: Source, { from, headers, body, unfinished = false }: Post) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(`${baseUrl}${paths.hook(a.workspace.sId, source.sId)}`, {
        method: 'POST',
        localAddress: from,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(body) + (unfinished ? 100_000 : 0)),
          ...headers,
        },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          });
          req.destroy();
        });
      });
      req.on('error', reject);
      if (unfinished) req.write(body);
      else req.end(body);
    });
  const github = (source: Source, body: string, signature = sign(source.secret, body)) => ({
    'X-GitHub-Event': 'push',
    'X-GitHub-Delivery': `delivery-${Math.random()}`,
    'X-Hub-Signature-256': `sha256=${signature}`,
  });
  const refusal = (status: number, type: string, message: string | RegExp) => ({
    status,
    body: {
      error: { type, message: typeof message === 'string' ? message : expect.stringMatching(message) },
    },
  });

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        WEBHOOK_UNVERIFIED_PER_ADDRESS_PER_MINUTE: PER_ADDRESS,
        WEBHOOK_UNVERIFIED_PER_SOURCE_PER_MINUTE: PER_SOURCE,
      },
    });
    baseUrl = await t.listen();
    world = new World(t);
    a = await world.workspace();
  });
  afterAll(() => t.close());

  it('refuses a request whose signature headers are missing or malformed without reading its body', async () => {
    const source = await createSource();
    const stamped = await createSource({ signatureHeader: 'X-Signature', timestampHeader: 'X-Timestamp' });
    const unfinished = { from: '127.0.0.2', body: BODY.slice(0, 100), unfinished: true };
    const missing = await post(source, { ...unfinished, headers: { 'X-GitHub-Delivery': 'd-1' } });
    expect(missing).toMatchObject(
      refusal(401, 'webhook_source_auth_error', 'The X-Hub-Signature-256 header is missing.'),
    );
    const malformed = await post(source, {
      ...unfinished,
      headers: { 'X-GitHub-Delivery': 'd-1', 'X-Hub-Signature-256': 'sha256=abc' },
    });
    expect(malformed).toMatchObject(
      refusal(401, 'webhook_source_auth_error', /must be "sha256=" followed by 64 hexadecimal digits/),
    );
    const anonymous = await post(source, {
      ...unfinished,
      headers: { 'X-Hub-Signature-256': `sha256=${'0'.repeat(64)}` },
    });
    expect(anonymous).toMatchObject(
      refusal(
        400,
        'invalid_request_error',
        'The X-GitHub-Delivery header is missing; GitHub sends it with every delivery.',
      ),
    );
    const stale = await post(stamped, {
      ...unfinished,
      headers: { 'X-Signature': '0'.repeat(64), 'X-Timestamp': String(Math.floor(Date.now() / 1000) - 3600) },
    });
    expect(stale).toMatchObject(refusal(401, 'webhook_source_auth_error', /more than 300 seconds away/));
  });

  it('answers 429 with Retry-After, unread, once an address or a source failed too often', async () => {
    const source = await createSource();
    const forged = (from: string, unfinished = false) =>
      post(source, {
        from,
        body: BODY,
        headers: github(source, BODY, sign('not-the-secret', BODY)),
        unfinished,
      });
    const mismatch = refusal(
      401,
      'webhook_source_auth_error',
      'The X-Hub-Signature-256 signature does not match the body.',
    );

    // One address: PER_ADDRESS failures, then refused before its body is read.
    for (let n = 0; n < PER_ADDRESS; n++) expect(await forged('127.0.0.3')).toMatchObject(mismatch);
    const limited = await forged('127.0.0.3', true);
    expect(limited).toMatchObject(
      refusal(
        429,
        'rate_limit_error',
        /^Too many webhook requests that failed verification from this address/,
      ),
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Even a correctly signed delivery: from there nothing is read for now.
    const signed = await post(source, { from: '127.0.0.3', body: BODY, headers: github(source, BODY) });
    expect(signed.status).toBe(429);

    // Other addresses take the source's failures up to PER_SOURCE; then the source is refused to all.
    for (let n = PER_ADDRESS; n < PER_SOURCE; n++) expect(await forged('127.0.0.4')).toMatchObject(mismatch);
    const flooded = await forged('127.0.0.5', true);
    expect(flooded).toMatchObject(
      refusal(
        429,
        'rate_limit_error',
        /^Too many webhook requests that failed verification for webhook source/,
      ),
    );
    expect(Number(flooded.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another source is not touched by this one's failures.
    const other = await createSource();
    const elsewhere = await post(other, {
      from: '127.0.0.5',
      body: BODY,
      headers: github(other, BODY, sign('not-the-secret', BODY)),
    });
    expect(elsewhere.status).toBe(401);
  });

  it('counts the requests naming no source of the workspace against their address', async () => {
    const unknown = (n: number) => ({ sId: `whs_unknown${n}`, secret: 'none' });
    for (let n = 0; n < PER_ADDRESS; n++) {
      const answer = await post(unknown(n), { from: '127.0.0.7', body: BODY, headers: {} });
      expect(answer.status).toBe(404);
    }
    const limited = await post(unknown(PER_ADDRESS), { from: '127.0.0.7', body: BODY, headers: {} });
    expect(limited).toMatchObject(
      refusal(
        429,
        'rate_limit_error',
        /^Too many webhook requests that failed verification from this address/,
      ),
    );
  });

  it('does not count the deliveries that verify against their sender', async () => {
    const source = await createSource();
    for (let n = 0; n < PER_ADDRESS * 3; n++) {
      const body = JSON.stringify({ action: 'opened', number: n });
      const answer = await post(source, { from: '127.0.0.6', body, headers: github(source, body) });
      expect({ n, status: answer.status, body: answer.body }).toEqual({
        n,
        status: 202,
        body: { success: true, accepted: true },
      });
    }
  });
});
