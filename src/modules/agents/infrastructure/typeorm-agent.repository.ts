import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from 'src/platform/database/pg-errors';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { AgentRepository, LatestVersionFilter } from 'src/modules/agents/application/ports/agent.repository';
import type { AgentVersion, AgentVersionDraft } from 'src/modules/agents/domain/agent-configuration';
import {
  AgentConfigurationEntity,
  AgentEditorEntity,
  AgentFavoriteEntity,
} from 'src/modules/agents/infrastructure/agents.entities';

const toVersion = (e: AgentConfigurationEntity): AgentVersion => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  version: e.version,
  versionCreatedAt: e.versionCreatedAt,
  versionAuthorId: e.versionAuthorId,
  name: e.name,
  description: e.description,
  instructions: e.instructions,
  pictureUrl: e.pictureUrl,
  status: e.status,
  scope: e.scope,
  model: e.model,
  actions: e.actions,
  maxStepsPerRun: e.maxStepsPerRun,
  visualizationEnabled: e.visualizationEnabled,
  templateId: e.templateId,
  tagIds: e.tagIds,
  skillIds: e.skillIds,
});

@Injectable()
export class TypeormAgentRepository extends AgentRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get versions() {
    return this.db.repository(AgentConfigurationEntity);
  }

  async lockAgent(workspaceId: number, sId: string): Promise<void> {
    // A row lock on the latest version would hand the waiter the archived row; an advisory lock keyed
    // by the agent lets it read the version the winner wrote.
    await this.db
      .manager()
      .query("SELECT pg_advisory_xact_lock(hashtextextended('agent:' || $1 || ':' || $2, 0))", [
        workspaceId,
        sId,
      ]);
  }

  async insertVersion(draft: AgentVersionDraft): Promise<AgentVersion | null> {
    try {
      return toVersion(await this.versions.save(this.versions.create(draft)));
    } catch (error) {
      if (isUniqueViolation(error, 'IDX_agent_configurations_live_name')) {
        throw new InvalidRequestError(
          `An active agent named "${draft.name}" already exists in this workspace.`,
        );
      }
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async archiveVersion(workspaceId: number, id: number): Promise<void> {
    await this.versions.update({ workspaceId, id }, { status: 'archived' });
  }

  async findLatest(
    workspaceId: number,
    sId: string,
    options: { lock?: boolean } = {},
  ): Promise<AgentVersion | null> {
    const query = this.versions
      .createQueryBuilder('a')
      .where('a.workspace_id = :workspaceId AND a.s_id = :sId', { workspaceId, sId })
      .orderBy('a.version', 'DESC')
      .limit(1);
    if (options.lock) query.setLock('pessimistic_write');
    const found = await query.getOne();
    return found && toVersion(found);
  }

  async listLatest(workspaceId: number, filter: LatestVersionFilter): Promise<AgentVersion[]> {
    if (filter.sIds?.length === 0) return [];
    const rows = await this.db.manager().query<Record<string, unknown>[]>(
      `SELECT * FROM (
         SELECT DISTINCT ON (s_id) * FROM agent_configurations
         WHERE workspace_id = $1
         ORDER BY s_id, version DESC
       ) latest
       WHERE ($2::text[] IS NULL OR scope = ANY($2))
         AND ($3::text[] IS NULL OR status = ANY($3))
         AND ($4::text[] IS NULL OR s_id = ANY($4))`,
      [workspaceId, filter.scopes ?? null, filter.statuses ?? null, filter.sIds ?? null],
    );
    return rows.map((row) => toVersion(this.versions.create(this.fromRaw(row))));
  }

  private fromRaw(row: Record<string, unknown>): Partial<AgentConfigurationEntity> {
    return {
      id: row.id as number,
      sId: row.s_id as string,
      workspaceId: row.workspace_id as number,
      version: row.version as number,
      versionCreatedAt: row.version_created_at as Date,
      versionAuthorId: row.version_author_id as number | null,
      name: row.name as string,
      description: row.description as string,
      instructions: row.instructions as string | null,
      pictureUrl: row.picture_url as string,
      status: row.status as AgentConfigurationEntity['status'],
      scope: row.scope as AgentConfigurationEntity['scope'],
      model: row.model as AgentConfigurationEntity['model'],
      actions: row.actions as AgentConfigurationEntity['actions'],
      maxStepsPerRun: row.max_steps_per_run as number,
      visualizationEnabled: row.visualization_enabled as boolean,
      templateId: row.template_id as string | null,
      tagIds: row.tag_ids as number[],
      skillIds: row.skill_ids as number[],
    };
  }

  async liveNameTaken(workspaceId: number, name: string, exceptSId: string | null): Promise<boolean> {
    const query = this.versions
      .createQueryBuilder('a')
      .where("a.workspace_id = :workspaceId AND a.status <> 'archived' AND lower(a.name) = lower(:name)", {
        workspaceId,
        name,
      });
    if (exceptSId) query.andWhere('a.s_id <> :exceptSId', { exceptSId });
    return query.getExists();
  }

  async editorsOf(workspaceId: number, sIds: string[]): Promise<Map<string, number[]>> {
    const result = new Map<string, number[]>(sIds.map((sId) => [sId, []]));
    if (sIds.length === 0) return result;
    const rows = await this.db
      .repository(AgentEditorEntity)
      .createQueryBuilder('e')
      .where('e.workspace_id = :workspaceId AND e.agent_s_id IN (:...sIds)', { workspaceId, sIds })
      .orderBy('e.user_id', 'ASC')
      .getMany();
    for (const row of rows) result.get(row.agentSId)?.push(row.userId);
    return result;
  }

  async replaceEditors(workspaceId: number, sId: string, userIds: number[]): Promise<void> {
    const editors = this.db.repository(AgentEditorEntity);
    await editors.delete({ workspaceId, agentSId: sId });
    if (userIds.length > 0) {
      await editors.insert(userIds.map((userId) => ({ workspaceId, agentSId: sId, userId })));
    }
  }

  async removeEditor(workspaceId: number, userId: number): Promise<void> {
    await this.db.repository(AgentEditorEntity).delete({ workspaceId, userId });
  }

  async agentsEditedBy(workspaceId: number, userId: number): Promise<string[]> {
    const rows = await this.db.repository(AgentEditorEntity).findBy({ workspaceId, userId });
    return rows.map((row) => row.agentSId);
  }

  async favoritesOf(workspaceId: number, userId: number): Promise<Set<string>> {
    const rows = await this.db.repository(AgentFavoriteEntity).findBy({ workspaceId, userId });
    return new Set(rows.map((row) => row.agentSId));
  }

  async setFavorite(workspaceId: number, sId: string, userId: number, favorite: boolean): Promise<void> {
    const favorites = this.db.repository(AgentFavoriteEntity);
    if (!favorite) {
      await favorites.delete({ workspaceId, userId, agentSId: sId });
      return;
    }
    await favorites
      .createQueryBuilder()
      .insert()
      .values({ workspaceId, userId, agentSId: sId })
      .orIgnore()
      .execute();
  }

  async recentAuthors(workspaceId: number, sIds: string[], perAgent: number): Promise<Map<string, number[]>> {
    const result = new Map<string, number[]>(sIds.map((sId) => [sId, []]));
    if (sIds.length === 0) return result;
    const rows = await this.db.manager().query<{ s_id: string; author_id: number }[]>(
      `SELECT s_id, author_id FROM (
         SELECT s_id, author_id, row_number() OVER (PARTITION BY s_id ORDER BY last_version DESC) AS rank
         FROM (
           SELECT s_id, version_author_id AS author_id, max(version) AS last_version
           FROM agent_configurations
           WHERE workspace_id = $1 AND s_id = ANY($2) AND version_author_id IS NOT NULL
           GROUP BY s_id, version_author_id
         ) authors
       ) ranked
       WHERE rank <= $3
       ORDER BY s_id, rank`,
      [workspaceId, sIds, perAgent],
    );
    for (const row of rows) result.get(row.s_id)?.push(row.author_id);
    return result;
  }
}
