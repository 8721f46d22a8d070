import type {
  DataSourceJson,
  DataSourceViewJson,
} from 'src/modules/data-sources/application/views/data-source.view';
import { DataSource, dataSourceCategory } from 'src/modules/data-sources/domain/data-source';
import type { DataSourceView } from 'src/modules/data-sources/domain/data-source-view';

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

export const presentCreatedDataSource = (dataSource: DataSource): DataSourceJson =>
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
