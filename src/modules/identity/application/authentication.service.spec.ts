import { describe, expect, it } from '@jest/globals';
import { SCOPES } from 'src/platform/auth/scopes';
import type { Clock } from 'src/platform/clock/clock';
import type { OperatorLog } from 'src/platform/logging/operator-log';
import { AuthenticationService } from 'src/modules/identity/application/authentication.service';
import type {
  ApiKeyRepository,
  KeyPrincipal,
} from 'src/modules/identity/application/ports/api-key.repository';
import { hashApiKeySecret } from 'src/modules/identity/domain/api-key';

const SECRET = `sk-${'a'.repeat(32)}`;
const createdAt = new Date('2026-01-01T00:00:00Z');
const principal = (revokedAt: Date | null): KeyPrincipal => ({
  key: {
    id: 3,
    sId: 'key_1',
    workspaceId: 1,
    userId: 7,
    userSId: 'usr',
    name: 'ci',
    scopes: [...SCOPES],
    secretHash: hashApiKeySecret(SECRET),
    displayPrefix: 'sk-aaaa',
    createdAt,
    lastUsedAt: null,
    revokedAt,
  },
  workspace: { id: 1, sId: 'wsp', name: 'Acme', createdAt },
  user: {
    id: 7,
    sId: 'usr',
    username: 'ada',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'L',
    fullName: 'Ada L',
    image: null,
    provider: 'api',
  } as KeyPrincipal['user'],
  membership: { id: 9, workspaceId: 1, userId: 7, role: 'admin', createdAt },
});

const clock: Clock = { now: () => new Date('2026-01-02T00:00:00Z') };
const log: OperatorLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The key store as the service sees it: look-ups wait in `pending` until the test answers them. */
function keyStore() {
  const pending: ((found: KeyPrincipal | null) => void)[] = [];
  const repository = {
    lookups: 0,
    findPrincipal(): Promise<KeyPrincipal | null> {
      repository.lookups++;
      return new Promise((resolve) => pending.push(resolve));
    },
    touch: () => Promise.resolve(),
  };
  const answer = (found: KeyPrincipal | null) => {
    for (const resolve of pending.splice(0)) resolve(found);
  };
  return { repository, answer, pending };
}

describe('AuthenticationService', () => {
  it('answers concurrent requests of an uncached key with one look-up', async () => {
    const { repository, answer } = keyStore();
    const service = new AuthenticationService(repository as unknown as ApiKeyRepository, clock, log);
    const requests = Array.from({ length: 5 }, () => service.authenticate(SECRET, 'wsp'));
    answer(principal(null));
    for (const result of await Promise.all(requests)) expect(result).toHaveProperty('caller.userSId', 'usr');
    expect(repository.lookups).toBe(1);
    await service.authenticate(SECRET, 'wsp');
    expect(repository.lookups).toBe(1);
  });

  it('does not let a look-up that began before a revocation serve or cache its stale answer', async () => {
    const { repository, pending } = keyStore();
    const service = new AuthenticationService(repository as unknown as ApiKeyRepository, clock, log);
    const before = service.authenticate(SECRET, 'wsp');
    service.forgetKey(3);
    const after = service.authenticate(SECRET, 'wsp');
    expect(repository.lookups).toBe(2);
    const [staleLookup, freshLookup] = pending;
    freshLookup(principal(new Date()));
    expect(await after).toEqual({ failure: 'invalid_key' });
    staleLookup(principal(null));
    expect(await before).toHaveProperty('caller');
    const later = service.authenticate(SECRET, 'wsp');
    expect(await later).toEqual({ failure: 'invalid_key' });
    expect(repository.lookups).toBe(2);
  });
});
