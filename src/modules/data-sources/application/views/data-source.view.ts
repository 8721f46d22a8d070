import type { ConnectorProvider, DataSourceCategory } from 'src/modules/data-sources/domain/data-source';
import type { DataSourceViewKind } from 'src/modules/data-sources/domain/data-source-view';

/** A data source on the wire, in the fields of Dust's `DataSourceType`. */
export interface DataSourceJson {
  id: number;
  sId: string;
  createdAt: number;
  name: string;
  description: string;
  serviceAPIProjectId: string;
  dustAPIProjectId: string;
  dustAPIDataSourceId: string;
  connectorId: string;
  connectorProvider: ConnectorProvider | null;
  assistantDefaultSelected: boolean;
}

export interface EditedByUserJson {
  fullName: string;
  editedAt: number;
  userId: string;
  email: string;
  imageUrl: string | null;
}

/** A data source view on the wire, in the fields of Dust's `DataSourceViewType`. */
export interface DataSourceViewJson {
  category: DataSourceCategory;
  createdAt: number;
  dataSource: DataSourceJson;
  editedByUser: EditedByUserJson;
  id: number;
  kind: DataSourceViewKind;
  parentsIn: string[] | null;
  sId: string;
  updatedAt: number;
  spaceId: string;
}
