import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type {
  DataSourceJson,
  DataSourceViewJson,
  EditedByUserJson,
} from 'src/modules/data-sources/application/views/data-source.view';
import type { ConnectorProvider, DataSourceCategory } from 'src/modules/data-sources/domain/data-source';
import type { DataSourceViewKind } from 'src/modules/data-sources/domain/data-source-view';

@ApiSchema({ name: 'DataSource' })
export class DataSourceSchema implements DataSourceJson {
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
export class CreatedDataSourceSchema extends DataSourceSchema {}

@ApiSchema({ name: 'DataSourceViewEditor' })
export class EditedByUserSchema implements EditedByUserJson {
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

@ApiSchema({ name: 'DataSourceView' })
export class DataSourceViewSchema implements DataSourceViewJson {
  /** `managed` for a connector, `website` for a crawled site, `folder` without a connector. */
  category!: DataSourceCategory;
  /** ms since the epoch */
  createdAt!: number;
  dataSource!: DataSourceSchema;
  editedByUser!: EditedByUserSchema;
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
  dataSourceViews!: DataSourceViewSchema[];
}

export class DataSourceViewResponse {
  dataSourceView!: DataSourceViewSchema;
}

export class CreatedDataSourceResponse {
  dataSource!: CreatedDataSourceSchema;
  /** The default view, in the space of the path. */
  dataSourceView!: DataSourceViewSchema;
}

/** Dust's answer to a workspace-wide search of data source views. */
export class SearchedDataSourceViewsResponse {
  data_source_views!: DataSourceViewSchema[];
}
