import { Injectable } from '@nestjs/common';
import type { ViewSearchTarget } from 'src/modules/data-sources/application/ports/document-index';
import { isUniqueViolation } from 'src/platform/database/pg-errors';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  DataSourceRepository,
  NewDataSource,
  NewDataSourceView,
} from 'src/modules/data-sources/application/ports/data-source.repository';
import type { DataSource } from 'src/modules/data-sources/domain/data-source';
import type { DataSourceView } from 'src/modules/data-sources/domain/data-source-view';
import {
  DataSourceAlreadyInSpace,
  DataSourceNameTaken,
} from 'src/modules/data-sources/domain/data-sources.errors';
import {
  DATA_SOURCE_NAME_INDEX,
  DOCUMENT_COUNT_STRIPES,
  DataSourceEntity,
  DataSourceViewEntity,
  VIEW_PER_SPACE_INDEX,
} from 'src/modules/data-sources/infrastructure/data-sources.entities';

const toDataSource = (e: DataSourceEntity): DataSource => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  name: e.name,
  description: e.description,
  connectorProvider: e.connectorProvider,
  connectorId: e.connectorId,
  serviceApiProjectId: e.serviceApiProjectId,
  assistantDefaultSelected: e.assistantDefaultSelected,
  textSearchConfig: e.textSearchConfig,
  createdAt: e.createdAt,
});

/** A view row loaded with its data source, space and editor (see `views()`). */
const toView = (e: DataSourceViewEntity): DataSourceView => {
  if (!e.dataSource || !e.space || !e.editedBy) throw new Error(`View ${e.sId} loaded without its relations`);
  return {
    id: e.id,
    sId: e.sId,
    workspaceId: e.workspaceId,
    spaceId: e.spaceId,
    spaceSId: e.space.sId,
    kind: e.kind,
    parentsIn: e.parentsIn,
    dataSource: toDataSource(e.dataSource),
    editedBy: {
      userId: e.editedByUserId,
      userSId: e.editedBy.sId,
      fullName: e.editedBy.fullName,
      email: e.editedBy.email,
      image: e.editedBy.image,
    },
    editedAt: e.editedAt,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
};

@Injectable()
export class TypeormDataSourceRepository extends DataSourceRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get dataSources() {
    return this.db.repository(DataSourceEntity);
  }
  private get viewRows() {
    return this.db.repository(DataSourceViewEntity);
  }

  async createDataSource(dataSource: NewDataSource): Promise<DataSource> {
    try {
      const created = await this.dataSources.save(this.dataSources.create(dataSource));
      // Its document counters, in the creation's transaction (see DataSourceDocumentCountEntity).
      await this.db.manager().query(
        `INSERT INTO data_source_document_counts (data_source_id, stripe, workspace_id, count)
         SELECT $1, stripe, $2, 0 FROM generate_series(0, ${DOCUMENT_COUNT_STRIPES - 1}) AS stripe`,
        [created.id, created.workspaceId],
      );
      return toDataSource(created);
    } catch (error) {
      // Two creations racing past the name check: the index decides.
      if (isUniqueViolation(error, DATA_SOURCE_NAME_INDEX)) throw new DataSourceNameTaken(dataSource.name);
      throw error;
    }
  }

  async findDataSource(workspaceId: number, dataSourceSId: string): Promise<DataSource | null> {
    const found = await this.dataSources.findOneBy({ workspaceId, sId: dataSourceSId });
    return found && toDataSource(found);
  }

  async dataSourceNameExists(workspaceId: number, name: string): Promise<boolean> {
    return (
      this.dataSources
        .createQueryBuilder('ds')
        // The expression of the unique name index, so the index answers it.
        .where(
          'ds.workspace_id = :workspaceId AND lower(normalize(ds.name, NFKC)) = lower(normalize(:name, NFKC))',
          { workspaceId, name },
        )
        .getExists()
    );
  }

  async findDataSourceOwnedBy(
    workspaceId: number,
    spaceId: number,
    dataSourceSId: string,
  ): Promise<DataSource | null> {
    // Every document request starts here: a prepared statement, planned once per connection.
    const [found] = await this.db.hotRead<DataSourceEntity>(
      'data_source_owned_by_space',
      `SELECT ds.id, ds.s_id AS "sId", ds.workspace_id AS "workspaceId", ds.name, ds.description,
         ds.connector_provider AS "connectorProvider", ds.connector_id AS "connectorId",
         ds.service_api_project_id AS "serviceApiProjectId",
         ds.assistant_default_selected AS "assistantDefaultSelected",
         ds.text_search_config AS "textSearchConfig", ds.created_at AS "createdAt"
       FROM data_sources ds
       JOIN data_source_views v ON v.data_source_id = ds.id AND v.kind = 'default' AND v.space_id = $2
       WHERE ds.workspace_id = $1 AND ds.s_id = $3`,
      [workspaceId, spaceId, dataSourceSId],
    );
    return found ? toDataSource(found) : null;
  }

  async textSearchConfigExists(name: string): Promise<boolean> {
    const rows = await this.db
      .manager()
      .query<unknown[]>('SELECT 1 FROM pg_catalog.pg_ts_config WHERE cfgname = $1', [name]);
    return rows.length > 0;
  }

  async createView(view: NewDataSourceView): Promise<DataSourceView> {
    let saved: DataSourceViewEntity;
    try {
      saved = await this.viewRows.save(this.viewRows.create(view));
    } catch (error) {
      // Two additions racing past the service's check: the index decides.
      if (isUniqueViolation(error, VIEW_PER_SPACE_INDEX)) throw new DataSourceAlreadyInSpace();
      throw error;
    }
    return this.viewById(view.workspaceId, saved.id);
  }

  async findView(workspaceId: number, spaceId: number, viewSId: string): Promise<DataSourceView | null> {
    const found = await this.views(workspaceId)
      .andWhere('v.space_id = :spaceId AND v.s_id = :viewSId', { spaceId, viewSId })
      .getOne();
    return found && toView(found);
  }

  async findSearchTarget(
    workspaceId: number,
    spaceId: number,
    viewSId: string,
  ): Promise<ViewSearchTarget | null> {
    // Every search starts here: a prepared statement, planned once per connection.
    const [found] = await this.db.hotRead<ViewSearchTarget>(
      'data_source_view_search_target',
      `SELECT v.data_source_id AS "dataSourceId", v.parents_in AS "parentsIn", ds.text_search_config AS "textSearchConfig",
         ds.s_id AS "dataSourceSId"
       FROM data_source_views v
       JOIN data_sources ds ON ds.id = v.data_source_id AND ds.workspace_id = v.workspace_id
       WHERE v.workspace_id = $1 AND v.space_id = $2 AND v.s_id = $3`,
      [workspaceId, spaceId, viewSId],
    );
    return found ?? null;
  }

  async viewExists(workspaceId: number, dataSourceId: number, spaceId: number): Promise<boolean> {
    return this.viewRows.existsBy({ workspaceId, dataSourceId, spaceId });
  }

  async listViews(workspaceId: number, spaceId: number): Promise<DataSourceView[]> {
    const rows = await this.views(workspaceId).andWhere('v.space_id = :spaceId', { spaceId }).getMany();
    return rows.map(toView);
  }

  async listViewsOfSpaces(workspaceId: number, spaceIds: number[]): Promise<DataSourceView[]> {
    if (spaceIds.length === 0) return [];
    const rows = await this.views(workspaceId)
      .andWhere('v.space_id IN (:...spaceIds)', { spaceIds })
      .getMany();
    return rows.map(toView);
  }

  async updateViewParents(
    workspaceId: number,
    viewId: number,
    change: { parentsIn: string[] | null; editedByUserId: number; at: Date },
  ): Promise<DataSourceView | null> {
    const result = await this.viewRows.update(
      { workspaceId, id: viewId },
      {
        parentsIn: change.parentsIn,
        editedByUserId: change.editedByUserId,
        editedAt: change.at,
        updatedAt: change.at,
      },
    );
    return (result.affected ?? 0) > 0 ? this.viewById(workspaceId, viewId) : null;
  }

  async deleteView(workspaceId: number, viewId: number): Promise<boolean> {
    const result = await this.viewRows.delete({ workspaceId, id: viewId });
    return (result.affected ?? 0) > 0;
  }

  private async viewById(workspaceId: number, viewId: number): Promise<DataSourceView> {
    return toView(await this.views(workspaceId).andWhere('v.id = :viewId', { viewId }).getOneOrFail());
  }

  /** Views of the workspace with what their wire shape needs: the data source, the space's sId, the editor. */
  private views(workspaceId: number) {
    return this.viewRows
      .createQueryBuilder('v')
      .innerJoinAndSelect('v.dataSource', 'ds', 'ds.workspace_id = v.workspace_id')
      .innerJoin('v.space', 's', 's.workspace_id = v.workspace_id')
      .addSelect(['s.id', 's.sId'])
      .innerJoin('v.editedBy', 'u')
      .addSelect(['u.id', 'u.sId', 'u.fullName', 'u.email', 'u.image'])
      .where('v.workspace_id = :workspaceId', { workspaceId })
      .orderBy('v.id', 'ASC');
  }
}
