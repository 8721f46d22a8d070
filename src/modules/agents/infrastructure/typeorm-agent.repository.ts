import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from 'src/platform/database/pg-errors';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import {
  AgentRelations,
  AgentRepository,
  LatestVersionFilter,
  RelatedAgent,
  RelationsReader,
} from 'src/modules/agents/application/ports/agent.repository';
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

/** Columns of `agent_configurations` as a raw query returns them. */
interface VersionRow {
  id: number;
  s_id: string;
  workspace_id: number;
  version: number;
  version_created_at: Date;
  version_author_id: number | null;
  name: string;
  description: string;
  instructions: string | null;
  picture_url: string;
  status: AgentVersion['status'];
  scope: AgentVersion['scope'];
  model: AgentVersion['model'];
  actions: AgentVersion['actions'];
  max_steps_per_run: number;
  visualization_enabled: boolean;
  template_id: string | null;
  tag_ids: number[];
  skill_ids: number[];
}

const fromRow = (row: VersionRow): AgentVersion => ({
  id: row.id,
  sId: row.s_id,
  workspaceId: row.workspace_id,
  version: row.version,
  versionCreatedAt: row.version_created_at,
  versionAuthorId: row.version_author_id,
  name: row.name,
  description: row.description,
  instructions: row.instructions,
  pictureUrl: row.picture_url,
  status: row.status,
  scope: row.scope,
  model: row.model,
  actions: row.actions,
  maxStepsPerRun: row.max_steps_per_run,
  visualizationEnabled: row.visualization_enabled,
  templateId: row.template_id,
  tagIds: row.tag_ids,
  skillIds: row.skill_ids,
});

interface RelationsRow {
  favorite: boolean;
  editor_ids: number[];
  /** Every version's author, newest version first; null when not asked for. */
  author_ids: (number | null)[] | null;
}

const relationsFromRow = (row: RelationsRow, recentAuthors: number | null): AgentRelations => ({
  favorite: row.favorite,
  editorIds: row.editor_ids,
  // An author's place is that of their newest version.
  recentAuthorIds:
    recentAuthors === null
      ? null
      : [...new Set((row.author_ids ?? []).filter((id): id is number => id !== null))].slice(
          0,
          recentAuthors,
        ),
});

/** The authors of all of an agent's versions, newest version first. */
const AUTHORS = `array_agg(version_author_id) OVER (
  PARTITION BY s_id ORDER BY version DESC ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING
)`;

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

  async findLatest(workspaceId: number, sId: string): Promise<AgentVersion | null> {
    const found = await this.versions
      .createQueryBuilder('a')
      .where('a.workspace_id = :workspaceId AND a.s_id = :sId', { workspaceId, sId })
      .orderBy('a.version', 'DESC')
      .limit(1)
      .getOne();
    return found && toVersion(found);
  }

  async listVersions(workspaceId: number, sId: string, limit: number): Promise<AgentVersion[]> {
    const found = await this.versions
      .createQueryBuilder('a')
      .where('a.workspace_id = :workspaceId AND a.s_id = :sId', { workspaceId, sId })
      .orderBy('a.version', 'DESC')
      .limit(limit)
      .getMany();
    return found.map(toVersion);
  }

  async listLatest(
    workspaceId: number,
    filter: LatestVersionFilter,
    reader: RelationsReader,
  ): Promise<RelatedAgent[]> {
    if (filter.sIds?.length === 0) return [];
    const values: unknown[] = [workspaceId, reader.userId];
    const param = (value: unknown) => `$${values.push(value)}`;
    const withAuthors = reader.recentAuthors !== null;
    // The sIds narrow the scan; scope and status apply to the latest version only.
    const bySId = filter.sIds ? `AND s_id = ANY(${param(filter.sIds)})` : '';
    const conditions = [
      ...(filter.scopes ? [`scope = ANY(${param(filter.scopes)})`] : []),
      ...(filter.statuses ? [`status = ANY(${param(filter.statuses)})`] : []),
    ];
    // One scan of the workspace's versions, in one sort: the window collects each agent's authors
    // before DISTINCT ON keeps its latest version; the favourite and the editors are index look-ups.
    const rows = await this.db.hotRead<VersionRow & RelationsRow>(
      ['agents_latest', withAuthors && 'a', filter.sIds && 's', filter.scopes && 'c', filter.statuses && 't']
        .filter(Boolean)
        .join('_'),
      `SELECT latest.*,
         EXISTS (
           SELECT 1 FROM agent_favorites f
           WHERE f.workspace_id = $1 AND f.user_id = $2 AND f.agent_s_id = latest.s_id
         ) AS favorite,
         ARRAY(
           SELECT e.user_id FROM agent_editors e
           WHERE e.workspace_id = $1 AND e.agent_s_id = latest.s_id
           ORDER BY e.user_id
         ) AS editor_ids
       FROM (
         SELECT DISTINCT ON (s_id) *, ${withAuthors ? AUTHORS : 'NULL::int[]'} AS author_ids
         FROM agent_configurations
         WHERE workspace_id = $1 ${bySId}
         ORDER BY s_id, version DESC
       ) latest
       ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}`,
      values,
    );
    return rows.map((row) => ({
      agent: fromRow(row),
      relations: relationsFromRow(row, reader.recentAuthors),
    }));
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
}
