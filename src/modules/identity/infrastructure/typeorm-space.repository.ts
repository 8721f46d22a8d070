import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from 'src/platform/database/pg-errors';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { ConflictError } from 'src/platform/errors/domain-error';
import { In } from 'typeorm';
import { SpaceRepository } from 'src/modules/identity/application/ports/space.repository';
import type { Space, SpaceKind } from 'src/modules/identity/domain/space';
import {
  SpaceEntity,
  SpaceMemberEntity,
  UserEntity,
} from 'src/modules/identity/infrastructure/identity.entities';
import { toSpace } from 'src/modules/identity/infrastructure/identity.mappers';

@Injectable()
export class TypeormSpaceRepository extends SpaceRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get spaces() {
    return this.db.repository(SpaceEntity);
  }
  private get spaceMembers() {
    return this.db.repository(SpaceMemberEntity);
  }

  async create(sId: string, workspaceId: number, name: string, kind: SpaceKind): Promise<Space> {
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

  async find(workspaceId: number, spaceSId: string): Promise<Space | null> {
    const found = await this.spaces.findOneBy({ workspaceId, sId: spaceSId });
    return found && toSpace(found);
  }

  async findAccessible(workspaceId: number, userId: number, spaceSId: string): Promise<Space | null> {
    // Every request on a space's content starts here: a prepared statement, planned once per connection.
    const [found] = await this.db.hotRead<SpaceEntity>(
      'space_accessible_to_member',
      `SELECT s.id, s.s_id AS "sId", s.workspace_id AS "workspaceId", s.name, s.kind, s.created_at AS "createdAt"
       FROM spaces s
       WHERE s.workspace_id = $1 AND s.s_id = $3
         AND (s.kind = 'global' OR EXISTS (SELECT 1 FROM space_members sm WHERE sm.space_id = s.id AND sm.user_id = $2))`,
      [workspaceId, userId, spaceSId],
    );
    return found ? toSpace(found) : null;
  }

  async nameExists(workspaceId: number, name: string): Promise<boolean> {
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

  async list(workspaceId: number, userId: number | null): Promise<Space[]> {
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

  async listAccessibleToMembers(members: { workspaceId: number; userId: number }[]): Promise<Space[][]> {
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

  async listMemberIds(workspaceId: number, spaceIds: number[]): Promise<Map<number, string[]>> {
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

  async addMembers(workspaceId: number, spaceId: number, userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.spaceMembers
      .createQueryBuilder()
      .insert()
      .values(userIds.map((userId) => ({ workspaceId, spaceId, userId })))
      .orIgnore()
      .execute();
  }

  async removeMember(workspaceId: number, spaceId: number, userId: number): Promise<void> {
    await this.spaceMembers.delete({ workspaceId, spaceId, userId });
  }

  async removeFromAll(workspaceId: number, userId: number): Promise<void> {
    await this.spaceMembers.delete({ workspaceId, userId });
  }
}
