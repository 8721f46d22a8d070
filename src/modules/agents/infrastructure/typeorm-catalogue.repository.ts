import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from 'src/platform/database/pg-errors';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { ConflictError } from 'src/platform/errors/domain-error';
import {
  CatalogueRepository,
  NewRemoteMcpServer,
} from 'src/modules/agents/application/ports/catalogue.repository';
import type {
  McpServerView,
  RemoteMcpServer,
  RemoteTool,
  RequireApproval,
  Skill,
  Tag,
  TagKind,
  ToolSync,
} from 'src/modules/agents/domain/catalogue';
import {
  McpServerViewEntity,
  RemoteMcpServerEntity,
  SkillEntity,
  TagEntity,
} from 'src/modules/agents/infrastructure/agents.entities';
import { In, QueryDeepPartialEntity } from 'typeorm';

const toTag = (e: TagEntity): Tag => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  name: e.name,
  kind: e.kind,
});
const toSkill = (e: SkillEntity): Skill => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  name: e.name,
  description: e.description,
  createdAt: e.createdAt,
});
const toServer = (e: RemoteMcpServerEntity): RemoteMcpServer => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  name: e.name,
  url: e.url,
  description: e.description,
  sharedSecret: e.sharedSecret,
  tools: e.tools,
  lastSyncedAt: e.lastSyncedAt,
  lastSyncError: e.lastSyncError,
  serverVersion: e.serverVersion,
  createdAt: e.createdAt,
});
const toView = (e: McpServerViewEntity): McpServerView => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  mcpServerId: e.mcpServerId,
  spaceId: e.spaceId,
  requireApproval: e.requireApproval,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

@Injectable()
export class TypeormCatalogueRepository extends CatalogueRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  async findTagsByNames(workspaceId: number, names: string[]): Promise<Tag[]> {
    if (names.length === 0) return [];
    const rows = await this.db
      .repository(TagEntity)
      .createQueryBuilder('t')
      .where('t.workspace_id = :workspaceId AND lower(t.name) IN (:...names)', {
        workspaceId,
        names: names.map((name) => name.toLowerCase()),
      })
      .getMany();
    return rows.map(toTag);
  }

  async ensureTags(
    workspaceId: number,
    tags: { sId: string; name: string; kind: TagKind }[],
  ): Promise<Tag[]> {
    if (tags.length > 0) {
      await this.db
        .repository(TagEntity)
        .createQueryBuilder()
        .insert()
        .values(tags.map((tag) => ({ ...tag, workspaceId })))
        .orIgnore()
        .execute();
    }
    return this.findTagsByNames(
      workspaceId,
      tags.map((tag) => tag.name),
    );
  }

  async findTagsByIds(workspaceId: number, ids: number[]): Promise<Tag[]> {
    if (ids.length === 0) return [];
    return (await this.db.repository(TagEntity).findBy({ workspaceId, id: In(ids) })).map(toTag);
  }

  async createSkill(workspaceId: number, sId: string, name: string, description: string): Promise<Skill> {
    const skills = this.db.repository(SkillEntity);
    try {
      return toSkill(await skills.save(skills.create({ workspaceId, sId, name, description })));
    } catch (error) {
      if (isUniqueViolation(error, 'IDX_skills_workspace_name')) {
        throw new ConflictError(`A skill named "${name}" already exists in this workspace.`);
      }
      throw error;
    }
  }

  async listSkills(workspaceId: number): Promise<Skill[]> {
    return (await this.db.repository(SkillEntity).find({ where: { workspaceId }, order: { id: 'ASC' } })).map(
      toSkill,
    );
  }

  async findSkillsBySIds(workspaceId: number, sIds: string[]): Promise<Skill[]> {
    if (sIds.length === 0) return [];
    return (await this.db.repository(SkillEntity).findBy({ workspaceId, sId: In(sIds) })).map(toSkill);
  }

  async skillNameTaken(workspaceId: number, name: string): Promise<boolean> {
    return this.db
      .repository(SkillEntity)
      .createQueryBuilder('s')
      .where('s.workspace_id = :workspaceId AND lower(s.name) = lower(:name)', { workspaceId, name })
      .getExists();
  }

  async createRemoteServer(server: NewRemoteMcpServer): Promise<RemoteMcpServer> {
    const servers = this.db.repository(RemoteMcpServerEntity);
    return toServer(await servers.save(servers.create(server)));
  }

  async saveSync(workspaceId: number, serverId: number, sync: ToolSync): Promise<RemoteMcpServer | null> {
    const servers = this.db.repository(RemoteMcpServerEntity);
    const { tools, lastSyncedAt, lastSyncError, serverVersion } = sync;
    // TypeORM's deep-partial type cannot follow a jsonb column typed as an interface.
    await servers.update(
      { workspaceId, id: serverId },
      {
        tools: tools as QueryDeepPartialEntity<RemoteTool>[],
        lastSyncedAt,
        lastSyncError,
        serverVersion,
      },
    );
    const found = await servers.findOneBy({ workspaceId, id: serverId });
    return found && toServer(found);
  }

  async listRemoteServers(workspaceId: number): Promise<RemoteMcpServer[]> {
    const rows = await this.db
      .repository(RemoteMcpServerEntity)
      .find({ where: { workspaceId }, order: { id: 'ASC' } });
    return rows.map(toServer);
  }

  async findRemoteServer(workspaceId: number, sId: string): Promise<RemoteMcpServer | null> {
    const found = await this.db.repository(RemoteMcpServerEntity).findOneBy({ workspaceId, sId });
    return found && toServer(found);
  }

  async findRemoteServersWithViews(
    workspaceId: number,
    sIds: string[],
  ): Promise<{ server: RemoteMcpServer; views: McpServerView[] }[]> {
    if (sIds.length === 0) return [];
    const rows = await this.db.repository(RemoteMcpServerEntity).find({
      where: { workspaceId, sId: In(sIds) },
      relations: { views: true },
      order: { id: 'ASC', views: { id: 'ASC' } },
    });
    return rows.map((row) => ({ server: toServer(row), views: (row.views ?? []).map(toView) }));
  }

  async listViews(workspaceId: number): Promise<McpServerView[]> {
    const rows = await this.db
      .repository(McpServerViewEntity)
      .find({ where: { workspaceId }, order: { id: 'ASC' } });
    return rows.map(toView);
  }

  async createView(
    workspaceId: number,
    view: Pick<McpServerView, 'sId' | 'mcpServerId' | 'spaceId' | 'requireApproval'>,
  ): Promise<McpServerView> {
    const views = this.db.repository(McpServerViewEntity);
    try {
      return toView(await views.save(views.create({ workspaceId, ...view })));
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ConflictError('This tool server is already shared to this space.');
      throw error;
    }
  }

  async findView(workspaceId: number, spaceId: number, viewSId: string): Promise<McpServerView | null> {
    const found = await this.db
      .repository(McpServerViewEntity)
      .findOneBy({ workspaceId, spaceId, sId: viewSId });
    return found && toView(found);
  }

  async updateViewApproval(
    workspaceId: number,
    viewId: number,
    requireApproval: RequireApproval,
  ): Promise<McpServerView | null> {
    const views = this.db.repository(McpServerViewEntity);
    const found = await views.findOneBy({ workspaceId, id: viewId });
    if (!found) return null;
    found.requireApproval = requireApproval;
    return toView(await views.save(found));
  }

  async deleteView(workspaceId: number, viewId: number): Promise<void> {
    await this.db.repository(McpServerViewEntity).delete({ workspaceId, id: viewId });
  }
}
