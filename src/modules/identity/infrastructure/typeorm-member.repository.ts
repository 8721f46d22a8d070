import { Injectable } from '@nestjs/common';
import type { Role } from 'src/platform/auth/caller';
import { isUniqueViolation } from 'src/platform/database/pg-errors';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { ConflictError } from 'src/platform/errors/domain-error';
import {
  Member,
  MemberRepository,
  Membership,
} from 'src/modules/identity/application/ports/member.repository';
import { NewUserDetails, User, normaliseEmail, userNameParts } from 'src/modules/identity/domain/user';
import { MembershipEntity, UserEntity } from 'src/modules/identity/infrastructure/identity.entities';
import { toMembership, toUser } from 'src/modules/identity/infrastructure/identity.mappers';

@Injectable()
export class TypeormMemberRepository extends MemberRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get users() {
    return this.db.repository(UserEntity);
  }
  private get memberships() {
    return this.db.repository(MembershipEntity);
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

  async find(workspaceId: number, userSId: string): Promise<Member | null> {
    return (await this.members(workspaceId, { sIds: [userSId] }))[0] ?? null;
  }

  async findByEmail(workspaceId: number, email: string): Promise<Member | null> {
    return (await this.members(workspaceId, { emails: [email] }))[0] ?? null;
  }

  async findBySIds(workspaceId: number, userSIds: string[]): Promise<Member[]> {
    if (userSIds.length === 0) return [];
    return this.members(workspaceId, { sIds: userSIds });
  }

  async findByEmails(workspaceId: number, emails: string[]): Promise<Member[]> {
    if (emails.length === 0) return [];
    return this.members(workspaceId, { emails });
  }

  async findByUserIds(workspaceId: number, userIds: number[]): Promise<Member[]> {
    if (userIds.length === 0) return [];
    return this.members(workspaceId, { userIds });
  }

  list(workspaceId: number): Promise<Member[]> {
    return this.members(workspaceId, {});
  }

  async addMembership(workspaceId: number, userId: number, role: Role): Promise<Membership> {
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

  async changeRole(workspaceId: number, membershipId: number, role: Role): Promise<Membership> {
    await this.memberships.update({ id: membershipId, workspaceId }, { role });
    return toMembership(await this.memberships.findOneByOrFail({ id: membershipId, workspaceId }));
  }

  async lockAdmins(workspaceId: number): Promise<Membership[]> {
    const rows = await this.memberships
      .createQueryBuilder('m')
      .where('m.workspace_id = :workspaceId AND m.role = :role', { workspaceId, role: 'admin' })
      .setLock('pessimistic_write')
      .getMany();
    return rows.map(toMembership);
  }

  async removeMembership(workspaceId: number, membershipId: number): Promise<boolean> {
    const result = await this.memberships.delete({ id: membershipId, workspaceId });
    return result.affected === 1;
  }
}
