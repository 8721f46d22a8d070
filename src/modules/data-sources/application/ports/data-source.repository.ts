import type { ViewSearchTarget } from 'src/modules/data-sources/application/ports/document-index';
import type { ConnectorProvider, DataSource } from 'src/modules/data-sources/domain/data-source';
import type { DataSourceView, DataSourceViewKind } from 'src/modules/data-sources/domain/data-source-view';

export interface NewDataSource {
  sId: string;
  workspaceId: number;
  name: string;
  description: string;
  connectorProvider: ConnectorProvider | null;
  connectorId: string;
  serviceApiProjectId: string;
  assistantDefaultSelected: boolean;
  textSearchConfig: string;
}

export interface NewDataSourceView {
  sId: string;
  workspaceId: number;
  dataSourceId: number;
  spaceId: number;
  kind: DataSourceViewKind;
  parentsIn: string[] | null;
  editedByUserId: number;
}

/**
 * Port: persistence of data sources and their views. Every query takes the workspace id; a row of
 * another workspace is never found. Creations throw `DataSourceNameTaken` or
 * `DataSourceAlreadyInSpace` when a concurrent write won the race past the service's checks.
 */
export abstract class DataSourceRepository {
  abstract createDataSource(dataSource: NewDataSource): Promise<DataSource>;
  abstract findDataSource(workspaceId: number, dataSourceSId: string): Promise<DataSource | null>;
  abstract dataSourceNameExists(workspaceId: number, name: string): Promise<boolean>;
  /** The data source whose default view is in the space: the space that owns it. */
  abstract findDataSourceOwnedBy(
    workspaceId: number,
    spaceId: number,
    dataSourceSId: string,
  ): Promise<DataSource | null>;
  /** Whether PostgreSQL has a text-search configuration of that name (`pg_ts_config`). */
  abstract textSearchConfigExists(name: string): Promise<boolean>;

  abstract createView(view: NewDataSourceView): Promise<DataSourceView>;
  abstract findView(workspaceId: number, spaceId: number, viewSId: string): Promise<DataSourceView | null>;
  /** What a search through view `viewSId` of the space covers; null when the space has no such view. */
  abstract findSearchTarget(
    workspaceId: number,
    spaceId: number,
    viewSId: string,
  ): Promise<ViewSearchTarget | null>;
  abstract viewExists(workspaceId: number, dataSourceId: number, spaceId: number): Promise<boolean>;
  /** The views of a space, oldest first. */
  abstract listViews(workspaceId: number, spaceId: number): Promise<DataSourceView[]>;
  /** The views of several spaces, oldest first. */
  abstract listViewsOfSpaces(workspaceId: number, spaceIds: number[]): Promise<DataSourceView[]>;
  /** Null when the view was deleted meanwhile. */
  abstract updateViewParents(
    workspaceId: number,
    viewId: number,
    change: { parentsIn: string[] | null; editedByUserId: number; at: Date },
  ): Promise<DataSourceView | null>;
  /** False when the view was already gone. */
  abstract deleteView(workspaceId: number, viewId: number): Promise<boolean>;
}
