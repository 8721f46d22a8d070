import { Injectable } from '@nestjs/common';
import { ExpiringCache } from 'src/platform/cache/expiring-cache';
import { ApiKeyAuthenticator } from 'src/platform/auth/api-key-authenticator';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { ApiKeyRepository, KeyPrincipal } from 'src/modules/identity/application/ports/api-key.repository';
import { API_KEY_SECRET, hashApiKeySecret } from 'src/modules/identity/domain/api-key';

/** Another process's revocation or role change reaches this one within this time. */
export const KEY_CACHE_TTL_MS = 4_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;
const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves API keys to callers, with a short in-process cache that this process invalidates on every change. */
@Injectable()
export class AuthenticationService extends ApiKeyAuthenticator {
  private readonly cache = new ExpiringCache<string, KeyPrincipal>(KEY_CACHE_TTL_MS, KEY_CACHE_MAX_ENTRIES);
  private readonly lastTouched = new Map<number, number>();
  /** Look-ups in flight, so concurrent requests with an expired key share one query. */
  private readonly loading = new Map<string, Promise<KeyPrincipal | null>>();
  /** Bumped by every forget, so a look-up that started before it neither caches nor is shared. */
  private generation = 0;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly log: OperatorLog,
  ) {
    super();
  }

  async authenticate(
    secret: string,
    workspaceSId: string,
  ): Promise<{ caller: Caller } | { failure: 'invalid_key' | 'wrong_workspace' }> {
    if (!API_KEY_SECRET.test(secret)) return { failure: 'invalid_key' };
    const principal = await this.principal(hashApiKeySecret(secret));
    if (!principal || principal.key.revokedAt) return { failure: 'invalid_key' };
    const { key, workspace, user, membership } = principal;
    if (workspace.sId !== workspaceSId || !membership) return { failure: 'wrong_workspace' };
    this.touch(key.id);
    return {
      caller: new Caller(
        workspace.id,
        workspace.sId,
        workspace.name,
        user.id,
        user.sId,
        membership.role,
        key.scopes,
        key.sId,
      ),
    };
  }

  /** Forget a key at once (revocation). */
  forgetKey(keyId: number): void {
    this.forgetLoading();
    this.cache.deleteWhere((principal) => principal.key.id === keyId);
  }

  /** Forget every key of a member at once (role change, removal). */
  forgetMember(workspaceId: number, userId: number): void {
    this.forgetLoading();
    this.cache.deleteWhere(({ key }) => key.workspaceId === workspaceId && key.userId === userId);
  }

  private async principal(secretHash: string): Promise<KeyPrincipal | null> {
    const now = this.clock.now().getTime();
    const cached = this.cache.get(secretHash, now);
    if (cached) return cached;
    let loading = this.loading.get(secretHash);
    if (!loading) {
      const started = this.load(secretHash).finally(() => {
        if (this.loading.get(secretHash) === started) this.loading.delete(secretHash);
      });
      loading = started;
      this.loading.set(secretHash, started);
    }
    return loading;
  }

  private forgetLoading(): void {
    this.generation++;
    this.loading.clear();
  }

  private async load(secretHash: string): Promise<KeyPrincipal | null> {
    const generation = this.generation;
    const principal = await this.keys.findPrincipal(secretHash);
    const now = this.clock.now().getTime();
    if (generation !== this.generation) return principal;
    if (principal) this.cache.set(secretHash, principal, now);
    else this.cache.delete(secretHash);
    return principal;
  }

  /** lastUsedAt is written at most once a minute per key, off the request path. */
  private touch(keyId: number): void {
    const now = this.clock.now();
    if (now.getTime() - (this.lastTouched.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastTouched.set(keyId, now.getTime());
    this.keys
      .touch(keyId, now)
      .catch((error: unknown) =>
        this.log.warn(AuthenticationService.name, { err: error }, 'Could not record lastUsedAt'),
      );
  }
}
