import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { SCOPES, Scope, isScope } from 'src/platform/auth/scopes';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { AccessChanges } from 'src/platform/events/access-changes';
import { ForbiddenError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { generatePrefixedSId, randomBase62 } from 'src/platform/ids/sid';
import { AuthenticationService } from 'src/modules/identity/application/authentication.service';
import { ApiKey, ApiKeyRepository } from 'src/modules/identity/application/ports/api-key.repository';
import { MemberRepository } from 'src/modules/identity/application/ports/member.repository';
import {
  API_KEY_NAME_MAX,
  displayPrefix,
  generateApiKeySecret,
  hashApiKeySecret,
} from 'src/modules/identity/domain/api-key';
import { ApiKeyNotFound, UserNotFound } from 'src/modules/identity/domain/identity.errors';
import { checkName } from 'src/platform/text/names';

export interface CreatedApiKey {
  key: ApiKey;
  /** Shown once, at creation; only its hash is stored. */
  secret: string;
}

/** The scopes a key is created with: none given means every scope. */
function parseScopes(scopes: readonly string[] | undefined): Scope[] {
  if (scopes === undefined) return [...SCOPES];
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length > 0) {
    throw new InvalidRequestError(
      `scopes: unknown scope(s) ${unknown.join(', ')}; known: ${SCOPES.join(', ')}.`,
    );
  }
  if (scopes.length === 0)
    throw new InvalidRequestError('scopes: give at least one scope, or omit it for all.');
  return [...new Set(scopes as Scope[])];
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly members: MemberRepository,
    private readonly authentication: AuthenticationService,
    private readonly unitOfWork: UnitOfWork,
    private readonly accessChanges: AccessChanges,
    private readonly clock: Clock,
  ) {}

  /** Creates a key for a member; no scopes given means every scope. */
  async issue(
    workspaceId: number,
    userId: number,
    name: string,
    scopes: readonly string[] | undefined,
  ): Promise<CreatedApiKey> {
    const secret = generateApiKeySecret(randomBase62);
    const key = await this.keys.create({
      sId: generatePrefixedSId('key'),
      workspaceId,
      userId,
      name: checkName('name', name, API_KEY_NAME_MAX),
      scopes: parseScopes(scopes),
      secretHash: hashApiKeySecret(secret),
      displayPrefix: displayPrefix(secret),
    });
    return { key, secret };
  }

  /**
   * Members create keys for themselves, never with a scope their own key lacks (no scopes given:
   * the caller's scopes). Admins holding the `admin` scope create keys for anyone.
   */
  async create(
    caller: Caller,
    input: { name: string; scopes?: string[]; userId?: string },
  ): Promise<CreatedApiKey> {
    let ownerId = caller.userId;
    if (input.userId !== undefined && input.userId !== caller.userSId) {
      this.requireKeyAdmin(caller, 'create keys for another member');
      const owner = await this.members.find(caller.workspaceId, input.userId);
      if (!owner) throw new UserNotFound(input.userId);
      ownerId = owner.user.id;
    }
    const scopes: readonly Scope[] = input.scopes === undefined ? caller.scopes : parseScopes(input.scopes);
    const beyond = scopes.filter((scope) => !caller.hasScope(scope));
    if (beyond.length > 0) {
      throw new ForbiddenError(`A key cannot grant scopes the caller's key lacks: ${beyond.join(', ')}.`);
    }
    return this.issue(caller.workspaceId, ownerId, input.name, scopes);
  }

  list(caller: Caller): Promise<ApiKey[]> {
    return this.keys.list(caller.workspaceId, this.isKeyAdmin(caller) ? null : caller.userId);
  }

  async revoke(caller: Caller, keySId: string): Promise<ApiKey> {
    const key = await this.keys.find(caller.workspaceId, keySId);
    if (!key || (key.userId !== caller.userId && !this.isKeyAdmin(caller))) throw new ApiKeyNotFound(keySId);
    return this.revokeKey(key);
  }

  /** The operator's revocation (CLI): no caller, any key of the workspace. */
  async revokeAsOperator(workspaceId: number, keySId: string): Promise<ApiKey> {
    const key = await this.keys.find(workspaceId, keySId);
    if (!key) throw new ApiKeyNotFound(keySId);
    return this.revokeKey(key);
  }

  /**
   * Revokes every key of a member (their removal) in the current transaction, announced to every
   * process (their open streams close); this process stops accepting them once it commits.
   */
  async revokeAllOf(workspaceId: number, userId: number): Promise<ApiKey[]> {
    const revoked = await this.keys.revokeAllOf(workspaceId, userId, this.clock.now());
    for (const key of revoked) await this.accessChanges.announce({ kind: 'key_revoked', keyId: key.sId });
    this.unitOfWork.afterCommit(() => this.forgetRevoked(revoked));
    return revoked;
  }

  /**
   * The callers these keys give now, read fresh (no cache): revoked keys and keys whose owner has
   * left the workspace are missing. One query for all (re-checks of open event streams).
   */
  async currentCallers(keySIds: string[]): Promise<Map<string, Caller>> {
    const standings = await this.keys.findStandings([...new Set(keySIds)]);
    const callers = new Map<string, Caller>();
    for (const standing of standings) {
      if (standing.revoked || standing.role === null) continue;
      callers.set(
        standing.keySId,
        new Caller(
          standing.workspaceId,
          standing.workspaceSId,
          standing.workspaceName,
          standing.userId,
          standing.userSId,
          standing.role,
          standing.scopes,
          standing.keySId,
        ),
      );
    }
    return callers;
  }

  /** The revocation and its announcement commit together, so every process hears of it. */
  private async revokeKey(key: ApiKey): Promise<ApiKey> {
    const revoked = await this.unitOfWork.run(async () => {
      if (key.revokedAt) return key;
      const updated = await this.keys.revoke(key.workspaceId, key.id, this.clock.now());
      await this.accessChanges.announce({ kind: 'key_revoked', keyId: key.sId });
      return updated;
    });
    this.forgetRevoked([key]);
    return revoked;
  }

  /** Where every revocation reaches this process's key cache. */
  private forgetRevoked(keys: ApiKey[]): void {
    for (const key of keys) this.authentication.forgetKey(key.id);
  }

  private isKeyAdmin(caller: Caller): boolean {
    return caller.isAdmin && caller.hasScope('admin');
  }

  private requireKeyAdmin(caller: Caller, action: string): void {
    if (!this.isKeyAdmin(caller)) {
      throw new ForbiddenError(`Only an admin with the admin scope can ${action}.`);
    }
  }
}
