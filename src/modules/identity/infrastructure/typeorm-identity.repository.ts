import { Injectable } from '@nestjs/common';
import type { Role } from 'src/platform/auth/caller';
import { isUniqueViolation } from 'src/platform/database/pg-errors';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { ConflictError } from 'src/platform/errors/domain-error';
import { In } from 'typeorm';
import {
  IdentityRepository,
  KeyPrincipal,
  KeyStanding,
  Member,
  NewApiKey,
} from 'src/modules/identity/application/ports/identity.repository';
import type { ApiKey } from 'src/modules/identity/domain/api-key';
import type { Membership } from 'src/modules/identity/domain/membership';
import type { Space, SpaceKind } from 'src/modules/identity/domain/space';
import { NewUserDetails, User, normaliseEmail, userNameParts } from 'src/modules/identity/domain/user';
import type { Workspace } from 'src/modules/identity/domain/workspace';
import {
  ApiKeyEntity,
  MembershipEntity,
  SpaceEntity,
  SpaceMemberEntity,
  UserEntity,
  WorkspaceEntity,
} from 'src/modules/identity/infrastructure/identity.entities';

const toWorkspace = (e: WorkspaceEntity): Workspace => ({
  id: e.id,
  sId: e.sId,
  name: e.name,
  createdAt: e.createdAt,
});

const toUser = (e: UserEntity): User => ({
  id: e.id,
  sId: e.sId,
  username: e.username,
  email: e.email,
  firstName: e.firstName,
  lastName: e.lastName,
  fullName: e.fullName,
  image: e.image,
  provider: e.provider,
  createdAt: e.createdAt,
  lastLoginAt: e.lastLoginAt,
});

const toMembership = (e: MembershipEntity): Membership => ({
  id: e.id,
  workspaceId: e.workspaceId,
  userId: e.userId,
  role: e.role,
  createdAt: e.createdAt,
});

const toSpace = (e: SpaceEntity): Space => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  name: e.name,
  kind: e.kind,
  createdAt: e.createdAt,
});

const toApiKey = (e: ApiKeyEntity, userSId: string): ApiKey => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  userId: e.userId,
  userSId,
  name: e.name,
  scopes: e.scopes,
  secretHash: e.secretHash,
  displayPrefix: e.displayPrefix,
  createdAt: e.createdAt,
  lastUsedAt: e.lastUsedAt,
  revokedAt: e.revokedAt,
});

@Injectable()
export class TypeormIdentityRepository extends IdentityRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get workspaces() {
    return this.db.repository(WorkspaceEntity);
  }
  private get users() {
    return this.db.repository(UserEntity);
  }
  private get memberships() {
    return this.db.repository(MembershipEntity);
  }
  private get spaces() {
    return this.db.repository(SpaceEntity);
  }
  private get spaceMembers() {
    return this.db.repository(SpaceMemberEntity);
  }
  private get apiKeys() {
    return this.db.repository(ApiKeyEntity);
  }

  async createWorkspace(sId: string, name: string): Promise<Workspace> {
    return toWorkspace(await this.workspaces.save(this.workspaces.create({ sId, name })));
  }

  async findWorkspaceBySId(sId: string): Promise<Workspace | null> {
    const found = await this.workspaces.findOneBy({ sId });
    return found && toWorkspace(found);
  }

  async findWorkspaceById(id: number): Promise<Workspace | null> {
    const found = await this.workspaces.findOneBy({ id });
    return found && toWorkspace(found);
  }

  async findWorkspacesByName(name: string): Promise<Workspace[]> {
    return (await this.workspaces.find({ where: { name }, order: { id: 'ASC' } })).map(toWorkspace);
  }

  async findUserByEmail(email: string): Promise<User | null> {
    const found = await this.users.findOneBy({ email: normaliseEmail(email) });
    return found && toUser(found);
  }

  async findUsersByIds(ids: number[]): Promise<User[]> {
    if (ids.length === 0) return [];
    // Raw SQL, prepared: every page of messages reads its authors here, where the query builder's cost shows.
    return (
      await this.db.hotRead<UserEntity>(
        'users-by-ids',
        `SELECT id, s_id AS "sId", email, username, first_name AS "firstName", last_name AS "lastName",
                full_name AS "fullName", image, provider, created_at AS "createdAt", last_login_at AS "lastLoginAt"
         FROM users WHERE id = ANY($1)`,
        [ids],
      )
    ).map(toUser);
  }

  /** Two requests adding the same new email at once: the loser reuses the winner's user. */
  async createUser(sId: string, details: NewUserDetails, provider = 'api'): Promise<User> {
    const entity = this.users.create({
      sId,
      email: normaliseEmail(details.email),
      ...userNameParts(details),
      image: null,
      provider,
      lastLoginAt: null,
    });
    await this.users.createQueryBuilder().insert().values(entity).orIgnore().execute();
    return toUser(await this.users.findOneByOrFail({ email: entity.email }));
  }

  private async members(
    workspaceId: number,
    where: { sIds?: string[]; emails?: string[]; userIds?: number[] },
  ): Promise<Member[]> {
    const query = this.memberships
      .createQueryBuilder('m')
      .innerJoinAndMapOne('m.user', UserEntity, 'u', 'u.id = m.user_id')
      .where('m.workspace_id = :workspaceId', { workspaceId })
      .orderBy('m.id', 'ASC');
    if (where.sIds) query.andWhere('u.s_id IN (:...sIds)', { sIds: where.sIds });
    if (where.emails) query.andWhere('u.email IN (:...emails)', { emails: where.emails.map(normaliseEmail) });
    if (where.userIds) query.andWhere('u.id IN (:...userIds)', { userIds: where.userIds });
    const rows = await query.getMany();
    return rows.map((row) => ({ membership: toMembership(row), user: toUser(row.user as UserEntity) }));
  }

  async findMember(workspaceId: number, userSId: string): Promise<Member | null> {
    return (await this.members(workspaceId, { sIds: [userSId] }))[0] ?? null;
  }

  async findMemberByEmail(workspaceId: number, email: string): Promise<Member | null> {
    return (await this.members(workspaceId, { emails: [email] }))[0] ?? null;
  }

  async findMembersBySIds(workspaceId: number, userSIds: string[]): Promise<Member[]> {
    if (userSIds.length === 0) return [];
    return this.members(workspaceId, { sIds: userSIds });
  }

  async findMembersByEmails(workspaceId: number, emails: string[]): Promise<Member[]> {
    if (emails.length === 0) return [];
    return this.members(workspaceId, { emails });
  }

  async findMembersByUserIds(workspaceId: number, userIds: number[]): Promise<Member[]> {
    if (userIds.length === 0) return [];
    return this.members(workspaceId, { userIds });
  }

  listMembers(workspaceId: number): Promise<Member[]> {
    return this.members(workspaceId, {});
  }

  async createMembership(workspaceId: number, userId: number, role: Role): Promise<Membership> {
    try {
      return toMembership(
        await this.memberships.save(this.memberships.create({ workspaceId, userId, role })),
      );
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ConflictError('This user is already a member of this workspace.');
      throw error;
    }
  }

  async updateMembershipRole(workspaceId: number, membershipId: number, role: Role): Promise<Membership> {
    await this.memberships.update({ id: membershipId, workspaceId }, { role });
    return toMembership(await this.memberships.findOneByOrFail({ id: membershipId, workspaceId }));
  }

  async lockAdminMemberships(workspaceId: number): Promise<Membership[]> {
    const rows = await this.memberships
      .createQueryBuilder('m')
      .where('m.workspace_id = :workspaceId AND m.role = :role', { workspaceId, role: 'admin' })
      .setLock('pessimistic_write')
      .getMany();
    return rows.map(toMembership);
  }

  async deleteMembership(workspaceId: number, membershipId: number): Promise<boolean> {
    const result = await this.memberships.delete({ id: membershipId, workspaceId });
    return result.affected === 1;
  }

  async createSpace(sId: string, workspaceId: number, name: string, kind: SpaceKind): Promise<Space> {
    try {
      return toSpace(await this.spaces.save(this.spaces.create({ sId, workspaceId, name, kind })));
    } catch (error) {
      // Two creations racing past the name check: the index decides.
      if (isUniqueViolation(error, 'IDX_spaces_workspace_name')) {
        throw new ConflictError(`A space named "${name}" already exists in this workspace.`);
      }
      throw error;
    }
  }

  async findSpace(workspaceId: number, spaceSId: string): Promise<Space | null> {
    const found = await this.spaces.findOneBy({ workspaceId, sId: spaceSId });
    return found && toSpace(found);
  }

  async spaceNameExists(workspaceId: number, name: string): Promise<boolean> {
    return (
      this.spaces
        .createQueryBuilder('s')
        // The expression of IDX_spaces_workspace_name, so the index answers it.
        .where(
          's.workspace_id = :workspaceId AND lower(normalize(s.name, NFKC)) = lower(normalize(:name, NFKC))',
          { workspaceId, name },
        )
        .getExists()
    );
  }

  async listSpaces(workspaceId: number, userId: number | null): Promise<Space[]> {
    const query = this.spaces
      .createQueryBuilder('s')
      .where('s.workspace_id = :workspaceId', { workspaceId })
      .orderBy('s.id', 'ASC');
    if (userId !== null) {
      query.andWhere(
        "(s.kind = 'global' OR EXISTS (SELECT 1 FROM space_members sm WHERE sm.space_id = s.id AND sm.user_id = :userId))",
        { userId },
      );
    }
    return (await query.getMany()).map(toSpace);
  }

  async listAccessibleSpacesOfMembers(
    members: { workspaceId: number; userId: number }[],
  ): Promise<Space[][]> {
    if (members.length === 0) return [];
    const workspaceIds = [...new Set(members.map((member) => member.workspaceId))];
    const userIds = [...new Set(members.map((member) => member.userId))];
    const [spaces, memberships] = await Promise.all([
      this.spaces.find({ where: { workspaceId: In(workspaceIds) }, order: { id: 'ASC' } }),
      this.spaceMembers.findBy({ workspaceId: In(workspaceIds), userId: In(userIds) }),
    ]);
    const joined = new Set(memberships.map((row) => `${row.spaceId}:${row.userId}`));
    return members.map(({ workspaceId, userId }) =>
      spaces
        .filter(
          (space) =>
            space.workspaceId === workspaceId &&
            (space.kind === 'global' || joined.has(`${space.id}:${userId}`)),
        )
        .map(toSpace),
    );
  }

  async listSpaceMemberIds(workspaceId: number, spaceIds: number[]): Promise<Map<number, string[]>> {
    const result = new Map<number, string[]>(spaceIds.map((id) => [id, []]));
    if (spaceIds.length === 0) return result;
    const rows = await this.spaceMembers
      .createQueryBuilder('sm')
      .innerJoin(UserEntity, 'u', 'u.id = sm.user_id')
      .select(['sm.space_id AS "spaceId"', 'u.s_id AS "userSId"'])
      .where('sm.workspace_id = :workspaceId AND sm.space_id IN (:...spaceIds)', { workspaceId, spaceIds })
      .orderBy('sm.created_at', 'ASC')
      .getRawMany<{ spaceId: number; userSId: string }>();
    for (const row of rows) result.get(row.spaceId)?.push(row.userSId);
    return result;
  }

  async addSpaceMembers(workspaceId: number, spaceId: number, userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.spaceMembers
      .createQueryBuilder()
      .insert()
      .values(userIds.map((userId) => ({ workspaceId, spaceId, userId })))
      .orIgnore()
      .execute();
  }

  async removeSpaceMember(workspaceId: number, spaceId: number, userId: number): Promise<void> {
    await this.spaceMembers.delete({ workspaceId, spaceId, userId });
  }

  async removeFromSpaces(workspaceId: number, userId: number): Promise<void> {
    await this.spaceMembers.delete({ workspaceId, userId });
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

  async createApiKey(key: NewApiKey): Promise<ApiKey> {
    const saved = await this.apiKeys.save(this.apiKeys.create({ ...key, lastUsedAt: null, revokedAt: null }));
    return (await this.keys(key.workspaceId, { id: saved.id }))[0];
  }

  async findApiKey(workspaceId: number, keySId: string): Promise<ApiKey | null> {
    return (await this.keys(workspaceId, { sId: keySId }))[0] ?? null;
  }

  async listApiKeys(workspaceId: number, userId: number | null): Promise<ApiKey[]> {
    return this.keys(workspaceId, userId === null ? {} : { userId });
  }

  async revokeApiKey(workspaceId: number, keyId: number, at: Date): Promise<ApiKey> {
    await this.apiKeys
      .createQueryBuilder()
      .update()
      .set({ revokedAt: at })
      .where('id = :keyId AND workspace_id = :workspaceId AND revoked_at IS NULL', { keyId, workspaceId })
      .execute();
    return (await this.keys(workspaceId, { id: keyId }))[0];
  }

  async revokeApiKeysOf(workspaceId: number, userId: number, at: Date): Promise<ApiKey[]> {
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

  async findKeyPrincipal(secretHash: string): Promise<KeyPrincipal | null> {
    const key = await this.apiKeys.findOneBy({ secretHash });
    if (!key) return null;
    const [workspace, user, membership] = await Promise.all([
      this.workspaces.findOneByOrFail({ id: key.workspaceId }),
      this.users.findOneByOrFail({ id: key.userId }),
      this.memberships.findOneBy({ workspaceId: key.workspaceId, userId: key.userId }),
    ]);
    return {
      key: toApiKey(key, user.sId),
      workspace: toWorkspace(workspace),
      user: toUser(user),
      membership: membership && toMembership(membership),
    };
  }

  async findKeyStandings(keySIds: string[]): Promise<KeyStanding[]> {
    if (keySIds.length === 0) return [];
    return this.db.manager().query<KeyStanding[]>(
      `SELECT k.s_id AS "keySId", k.revoked_at IS NOT NULL AS revoked, k.scopes,
              w.id AS "workspaceId", w.s_id AS "workspaceSId", u.id AS "userId", u.s_id AS "userSId",
              m.role
       FROM api_keys k
       JOIN workspaces w ON w.id = k.workspace_id
       JOIN users u ON u.id = k.user_id
       LEFT JOIN memberships m ON m.workspace_id = k.workspace_id AND m.user_id = k.user_id
       WHERE k.s_id = ANY($1::varchar[])`,
      [keySIds],
    );
  }

  async touchApiKey(keyId: number, at: Date): Promise<void> {
    await this.apiKeys.update({ id: keyId }, { lastUsedAt: at });
  }
}
