import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  ApiKey,
  ApiKeyRepository,
  KeyPrincipal,
  KeyStanding,
  NewApiKey,
} from 'src/modules/identity/application/ports/api-key.repository';
import {
  ApiKeyEntity,
  MembershipEntity,
  UserEntity,
  WorkspaceEntity,
} from 'src/modules/identity/infrastructure/identity.entities';
import {
  toApiKey,
  toMembership,
  toUser,
  toWorkspace,
} from 'src/modules/identity/infrastructure/identity.mappers';

@Injectable()
export class TypeormApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get apiKeys() {
    return this.db.repository(ApiKeyEntity);
  }

  /** Keys of a workspace with their owner's sId. */
  private async keys(
    workspaceId: number,
    where: { id?: number; sId?: string; userId?: number },
  ): Promise<ApiKey[]> {
    const query = this.apiKeys
      .createQueryBuilder('k')
      .innerJoinAndMapOne('k.user', UserEntity, 'u', 'u.id = k.user_id')
      .where('k.workspace_id = :workspaceId', { workspaceId })
      .orderBy('k.id', 'ASC');
    if (where.id !== undefined) query.andWhere('k.id = :id', { id: where.id });
    if (where.sId !== undefined) query.andWhere('k.s_id = :sId', { sId: where.sId });
    if (where.userId !== undefined) query.andWhere('k.user_id = :userId', { userId: where.userId });
    const rows = await query.getMany();
    return rows.map((row) => toApiKey(row, (row.user as UserEntity).sId));
  }

  async create(key: NewApiKey): Promise<ApiKey> {
    const saved = await this.apiKeys.save(this.apiKeys.create({ ...key, lastUsedAt: null, revokedAt: null }));
    return (await this.keys(key.workspaceId, { id: saved.id }))[0];
  }

  async find(workspaceId: number, keySId: string): Promise<ApiKey | null> {
    return (await this.keys(workspaceId, { sId: keySId }))[0] ?? null;
  }

  async list(workspaceId: number, userId: number | null): Promise<ApiKey[]> {
    return this.keys(workspaceId, userId === null ? {} : { userId });
  }

  async revoke(workspaceId: number, keyId: number, at: Date): Promise<ApiKey> {
    await this.apiKeys
      .createQueryBuilder()
      .update()
      .set({ revokedAt: at })
      .where('id = :keyId AND workspace_id = :workspaceId AND revoked_at IS NULL', { keyId, workspaceId })
      .execute();
    return (await this.keys(workspaceId, { id: keyId }))[0];
  }

  async revokeAllOf(workspaceId: number, userId: number, at: Date): Promise<ApiKey[]> {
    const result = await this.apiKeys
      .createQueryBuilder()
      .update()
      .set({ revokedAt: at })
      .where('workspace_id = :workspaceId AND user_id = :userId AND revoked_at IS NULL', {
        workspaceId,
        userId,
      })
      .returning(['id'])
      .execute();
    const ids = new Set((result.raw as { id: number }[]).map((row) => row.id));
    return (await this.keys(workspaceId, { userId })).filter((key) => ids.has(key.id));
  }

  async findPrincipal(secretHash: string): Promise<KeyPrincipal | null> {
    const key = await this.apiKeys.findOneBy({ secretHash });
    if (!key) return null;
    const [workspace, user, membership] = await Promise.all([
      this.db.repository(WorkspaceEntity).findOneByOrFail({ id: key.workspaceId }),
      this.db.repository(UserEntity).findOneByOrFail({ id: key.userId }),
      this.db.repository(MembershipEntity).findOneBy({ workspaceId: key.workspaceId, userId: key.userId }),
    ]);
    return {
      key: toApiKey(key, user.sId),
      workspace: toWorkspace(workspace),
      user: toUser(user),
      membership: membership && toMembership(membership),
    };
  }

  async findStandings(keySIds: string[]): Promise<KeyStanding[]> {
    if (keySIds.length === 0) return [];
    return this.db.manager().query<KeyStanding[]>(
      `SELECT k.s_id AS "keySId", k.revoked_at IS NOT NULL AS revoked, k.scopes,
              w.id AS "workspaceId", w.s_id AS "workspaceSId", w.name AS "workspaceName", u.id AS "userId", u.s_id AS "userSId",
              m.role
       FROM api_keys k
       JOIN workspaces w ON w.id = k.workspace_id
       JOIN users u ON u.id = k.user_id
       LEFT JOIN memberships m ON m.workspace_id = k.workspace_id AND m.user_id = k.user_id
       WHERE k.s_id = ANY($1::varchar[])`,
      [keySIds],
    );
  }

  async touch(keyId: number, at: Date): Promise<void> {
    await this.apiKeys.update({ id: keyId }, { lastUsedAt: at });
  }
}
