import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  ConnectorProvider,
  DataSource,
  DataSourceCategory,
  dataSourceCategory,
} from 'src/modules/data-sources/domain/data-source';
import type { DataSourceView, DataSourceViewKind } from 'src/modules/data-sources/domain/data-source-view';

/** A data source on the wire, in the fields of Dust's `DataSourceType`. */
@ApiSchema({ name: 'DataSource' })
export class DataSourceJson {
  @ApiProperty({ type: 'integer' }) id!: number;
  /** @example dts_3fZ0aBcDeF */
  sId!: string;
  /** ms since the epoch */
  createdAt!: number;
  name!: string;
  description!: string;
  /** Opaque handle of the document project behind the data source. */
  serviceAPIProjectId!: string;
  /** Dust's name of `serviceAPIProjectId` (the same value). */
  dustAPIProjectId!: string;
  /**
   * Dust's handle of the data source in its document service: here its sId.
   * @example dts_3fZ0aBcDeF
   */
  dustAPIDataSourceId!: string;
  /** Opaque handle of the connection behind the data source. */
  connectorId!: string;
  /** null for a folder. */
  connectorProvider!: ConnectorProvider | null;
  assistantDefaultSelected!: boolean;
}

/** The creation's answer: its sId names the data source when sharing it into other spaces. */
@ApiSchema({ name: 'CreatedDataSource' })
export class CreatedDataSourceJson extends DataSourceJson {}

@ApiSchema({ name: 'DataSourceViewEditor' })
export class EditedByUserJson {
  fullName!: string;
  /** ms since the epoch */
  editedAt!: number;
  /**
   * sId of the member
   * @example Xk3bT9kLmA
   */
  userId!: string;
  /** @example ada@example.com */
  email!: string;
  /** null when the member has no picture */
  imageUrl!: string | null;
}

/** A data source view on the wire, in the fields of Dust's `DataSourceViewType`. */
@ApiSchema({ name: 'DataSourceView' })
export class DataSourceViewJson {
  /** `managed` for a connector, `website` for a crawled site, `folder` without a connector. */
  category!: DataSourceCategory;
  /** ms since the epoch */
  createdAt!: number;
  dataSource!: DataSourceJson;
  editedByUser!: EditedByUserJson;
  @ApiProperty({ type: 'integer' }) id!: number;
  kind!: DataSourceViewKind;
  /** null: the whole data source. */
  parentsIn!: string[] | null;
  /** @example dsv_3fZ0aBcDeF */
  sId!: string;
  /** ms since the epoch */
  updatedAt!: number;
  /**
   * sId of the space
   * @example vlt_3fZ0aBcDeF
   */
  spaceId!: string;
}

export class DataSourceViewsResponse {
  dataSourceViews!: DataSourceViewJson[];
}

export class DataSourceViewResponse {
  dataSourceView!: DataSourceViewJson;
}

export class CreatedDataSourceResponse {
  dataSource!: CreatedDataSourceJson;
  /** The default view, in the space of the path. */
  dataSourceView!: DataSourceViewJson;
}

/** Dust's answer to a workspace-wide search of data source views. */
export class SearchedDataSourceViewsResponse {
  data_source_views!: DataSourceViewJson[];
}

export const renderDataSource = (dataSource: DataSource): DataSourceJson => ({
  id: dataSource.id,
  sId: dataSource.sId,
  createdAt: dataSource.createdAt.getTime(),
  name: dataSource.name,
  description: dataSource.description,
  serviceAPIProjectId: dataSource.serviceApiProjectId,
  dustAPIProjectId: dataSource.serviceApiProjectId,
  dustAPIDataSourceId: dataSource.sId,
  connectorId: dataSource.connectorId,
  connectorProvider: dataSource.connectorProvider,
  assistantDefaultSelected: dataSource.assistantDefaultSelected,
});

export const renderDataSourceView = (view: DataSourceView): DataSourceViewJson => ({
  category: dataSourceCategory(view.dataSource.connectorProvider),
  createdAt: view.createdAt.getTime(),
  dataSource: renderDataSource(view.dataSource),
  editedByUser: {
    fullName: view.editedBy.fullName,
    editedAt: view.editedAt.getTime(),
    userId: view.editedBy.userSId,
    email: view.editedBy.email,
    imageUrl: view.editedBy.image,
  },
  id: view.id,
  kind: view.kind,
  parentsIn: view.parentsIn,
  sId: view.sId,
  updatedAt: view.updatedAt.getTime(),
  spaceId: view.spaceSId,
});
