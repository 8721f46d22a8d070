import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Server, createServer } from 'node:http';
import {
  ForbiddenAddressError,
  createGuardedFetch,
  findForbiddenAddress,
} from 'src/platform/net/guarded-fetch';

describe('createGuardedFetch', () => {
  let server: Server;
  let base: string;
  let port: number;
  const hits: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      const location = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
      if (location) res.writeHead(302, { Location: location }).end();
      else res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const refusal = async (promise: Promise<unknown>): Promise<ForbiddenAddressError | null> => {
    try {
      await promise;
      return null;
    } catch (error) {
      return findForbiddenAddress(error);
    }
  };

  it('refuses a literal private address before connecting, and lets it through when private networks are allowed', async () => {
    const guarded = createGuardedFetch({ allowPrivateNetworks: false, connectTimeoutMs: 1_000 });
    const open = createGuardedFetch({ allowPrivateNetworks: true, connectTimeoutMs: 1_000 });
    try {
      hits.length = 0;
      const refused = await refusal(guarded.fetch(`${base}/literal`));
      expect(refused).toMatchObject({ host: '127.0.0.1', address: '127.0.0.1', reason: 'loopback' });
      expect(hits).toEqual([]);
      expect(await (await open.fetch(`${base}/literal`)).text()).toBe('ok');
      expect(hits).toEqual(['/literal']);
    } finally {
      await Promise.all([guarded.close(), open.close()]);
    }
  });

  it.each([
    ['[::127.0.0.1]', '::7f00:1'],
    ['[::a00:1]', '::a00:1'],
    ['[::ffff:169.254.169.254]', '::ffff:a9fe:a9fe'],
    ['[2002:7f00:1::1]', '2002:7f00:1::1'],
    ['[2606:4700::5efe:10.0.0.1]', '2606:4700::5efe:a00:1'],
  ])('refuses the IPv6 literal %s, which carries a forbidden IPv4 address', async (host, address) => {
    const guarded = createGuardedFetch({ allowPrivateNetworks: false, connectTimeoutMs: 1_000 });
    try {
      const refused = await refusal(guarded.fetch(`http://${host}:${port}/embedded`));
      expect(refused).toMatchObject({ address, reason: expect.any(String) });
    } finally {
      await guarded.close();
    }
  });

  it('refuses a name that resolves to a forbidden address, at its DNS resolution', async () => {
    const guarded = createGuardedFetch({ allowPrivateNetworks: false, connectTimeoutMs: 1_000 });
    try {
      const refused = await refusal(guarded.fetch(`http://localhost:${port}/name`));
      expect(refused).toMatchObject({ host: 'localhost', reason: 'loopback' });
      expect(refused?.message).toContain('resolves to');
    } finally {
      await guarded.close();
    }
  });

  it('checks every connection a redirect opens', async () => {
    // Only 127.0.0.1 counts as allowed here, so the first request connects and its redirect does not.
    const guarded = createGuardedFetch({
      allowPrivateNetworks: false,
      connectTimeoutMs: 1_000,
      forbiddenReason: (address) => (address === '127.0.0.1' ? null : 'test'),
    });
    try {
      hits.length = 0;
      const toLiteral = `${base}/first?to=${encodeURIComponent(`http://127.0.0.2:${port}/second`)}`;
      expect(await refusal(guarded.fetch(toLiteral))).toMatchObject({ address: '127.0.0.2' });
      expect(hits).toEqual([expect.stringMatching(/^\/first/)]);
    } finally {
      await guarded.close();
    }
  });
});
