import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  CONNECTOR_PROVIDERS,
  ConnectorProvider,
  DATA_SOURCE_CATEGORIES,
  DataSource,
  DataSourceCategory,
  dataSourceCategory,
} from 'src/modules/data-sources/domain/data-source';
import {
  DATA_SOURCE_VIEW_KINDS,
  DataSourceView,
  DataSourceViewKind,
} from 'src/modules/data-sources/domain/data-source-view';

@ApiSchema({ name: 'DataSource' })
export class DataSourceJson {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ example: 'dts_3fZ0aBcDeF' }) sId!: string;
  @ApiProperty({ description: 'ms since the epoch' }) createdAt!: number;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'Opaque handle of the document project behind the data source.' })
  serviceAPIProjectId!: string;
  @ApiProperty({ description: "Dust's name of `serviceAPIProjectId` (the same value)." })
  dustAPIProjectId!: string;
  @ApiProperty({
    example: 'dts_3fZ0aBcDeF',
    description: "Dust's handle of the data source in its document service: here its sId.",
  })
  dustAPIDataSourceId!: string;
  @ApiProperty({ description: 'Opaque handle of the connection behind the data source.' })
  connectorId!: string;
  @ApiProperty({ enum: CONNECTOR_PROVIDERS, nullable: true, description: 'null for a folder.' })
  connectorProvider!: ConnectorProvider | null;
  @ApiProperty() assistantDefaultSelected!: boolean;
}

/** The creation's answer: its sId names the data source when sharing it into other spaces. */
@ApiSchema({ name: 'CreatedDataSource' })
export class CreatedDataSourceJson extends DataSourceJson {}

@ApiSchema({ name: 'DataSourceViewEditor' })
export class EditedByUserJson {
  @ApiProperty() fullName!: string;
  @ApiProperty({ description: 'ms since the epoch' }) editedAt!: number;
  @ApiProperty({ example: 'Xk3bT9kLmA', description: 'sId of the member' }) userId!: string;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ type: String, nullable: true, description: 'null when the member has no picture' })
  imageUrl!: string | null;
}

@ApiSchema({ name: 'DataSourceView' })
export class DataSourceViewJson {
  @ApiProperty({
    enum: DATA_SOURCE_CATEGORIES,
    description: '`managed` for a connector, `website` for a crawled site, `folder` without a connector.',
  })
  category!: DataSourceCategory;
  @ApiProperty({ description: 'ms since the epoch' }) createdAt!: number;
  @ApiProperty({ type: DataSourceJson }) dataSource!: DataSourceJson;
  @ApiProperty({ type: EditedByUserJson }) editedByUser!: EditedByUserJson;
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ enum: DATA_SOURCE_VIEW_KINDS }) kind!: DataSourceViewKind;
  @ApiProperty({ type: [String], nullable: true, description: 'null: the whole data source.' })
  parentsIn!: string[] | null;
  @ApiProperty({ example: 'dsv_3fZ0aBcDeF' }) sId!: string;
  @ApiProperty({ description: 'ms since the epoch' }) updatedAt!: number;
  @ApiProperty({ example: 'vlt_3fZ0aBcDeF', description: 'sId of the space' }) spaceId!: string;
}

export class DataSourceViewsResponse {
  @ApiProperty({ type: [DataSourceViewJson] }) dataSourceViews!: DataSourceViewJson[];
}

export class DataSourceViewResponse {
  @ApiProperty({ type: DataSourceViewJson }) dataSourceView!: DataSourceViewJson;
}

export class CreatedDataSourceResponse {
  @ApiProperty({ type: CreatedDataSourceJson }) dataSource!: CreatedDataSourceJson;
  @ApiProperty({ type: DataSourceViewJson, description: 'The default view, in the space of the path.' })
  dataSourceView!: DataSourceViewJson;
}

export const presentDataSource = (dataSource: DataSource): DataSourceJson => ({
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

export const presentCreatedDataSource = (dataSource: DataSource): CreatedDataSourceJson =>
  presentDataSource(dataSource);

export const presentDataSourceView = (view: DataSourceView): DataSourceViewJson => ({
  category: dataSourceCategory(view.dataSource.connectorProvider),
  createdAt: view.createdAt.getTime(),
  dataSource: presentDataSource(view.dataSource),
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
