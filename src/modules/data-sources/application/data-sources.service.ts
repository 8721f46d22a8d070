import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { generatePrefixedSId, randomBase62 } from 'src/platform/ids/sid';
import { SpacesService } from 'src/modules/identity/identity.api';
import { DataSourceRepository } from 'src/modules/data-sources/application/ports/data-source.repository';
import {
  DataSource,
  checkDataSourceDescription,
  checkDataSourceName,
  isAssistantDefaultSelected,
  parseConnectorProvider,
  parseTextSearchConfig,
} from 'src/modules/data-sources/domain/data-source';
import {
  DataSourceView,
  ParentsChange,
  changedParentsIn,
  checkViewDeletable,
  parseParentsIn,
} from 'src/modules/data-sources/domain/data-source-view';
import {
  DataSourceAlreadyInSpace,
  DataSourceNameTaken,
  DataSourceViewNotFound,
  UnknownDataSource,
  UnknownTextSearchConfig,
} from 'src/modules/data-sources/domain/data-sources.errors';

/** The provider and text-search configuration come unparsed: the service checks them. */
export type NewDataSourceInput = Pick<DataSource, 'name'> &
  Partial<Pick<DataSource, 'description'> & Record<'connectorProvider' | 'textSearchConfig', string | null>>;

/** Which views a workspace-wide search keeps (Dust's names: a vault is a space). */
export interface ViewSearch extends Partial<Pick<DataSourceView, 'kind'>> {
  dataSourceId?: string;
  vaultId?: string;
  vaultKind?: 'global' | 'regular';
}

export interface NewViewInput extends Partial<Pick<DataSourceView, 'parentsIn'>> {
  dataSourceId: string;
}

/**
 * No connector or document service runs behind a data source in this service: its connector and
 * project ids are opaque handles, unique per data source, that keep the shape clients expect.
 */
const HANDLE_LENGTH = 16;

@Injectable()
export class DataSourcesService {
  constructor(
    private readonly dataSources: DataSourceRepository,
    private readonly spaces: SpacesService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** The views of a space the caller can access; any other space is "not found". */
  async listViews(caller: Caller, spaceSId: string): Promise<DataSourceView[]> {
    const space = await this.spaces.findAccessible(caller, spaceSId);
    return this.dataSources.listViews(caller.workspaceId, space.id);
  }

  /** The views of every space the caller can access that match `search`, oldest first within a space. */
  async searchViews(caller: Caller, search: ViewSearch): Promise<DataSourceView[]> {
    const spaces = (await this.spaces.listAccessible(caller)).filter(
      (space) =>
        (search.vaultId === undefined || space.sId === search.vaultId) &&
        (search.vaultKind === undefined || space.kind === search.vaultKind),
    );
    if (spaces.length === 0) return [];
    const views = await this.dataSources.listViewsOfSpaces(
      caller.workspaceId,
      spaces.map((space) => space.id),
    );
    return views.filter(
      (view) =>
        (search.dataSourceId === undefined || view.dataSource.sId === search.dataSourceId) &&
        (search.kind === undefined || view.kind === search.kind),
    );
  }

  /** A data source and its default view, in the space that will own it (admins). */
  async create(
    caller: Caller,
    spaceSId: string,
    input: NewDataSourceInput,
  ): Promise<{ dataSource: DataSource; view: DataSourceView }> {
    const name = checkDataSourceName(input.name);
    const description = checkDataSourceDescription(input.description);
    const connectorProvider = parseConnectorProvider(input.connectorProvider);
    const textSearchConfig = parseTextSearchConfig(input.textSearchConfig);
    const space = await this.spaces.findInWorkspace(caller, spaceSId);
    if (!(await this.dataSources.textSearchConfigExists(textSearchConfig))) {
      throw new UnknownTextSearchConfig(textSearchConfig);
    }
    return this.unitOfWork.run(async () => {
      if (await this.dataSources.dataSourceNameExists(caller.workspaceId, name)) {
        throw new DataSourceNameTaken(name);
      }
      const dataSource = await this.dataSources.createDataSource({
        sId: generatePrefixedSId('dts'),
        workspaceId: caller.workspaceId,
        name,
        description,
        connectorProvider,
        connectorId: randomBase62(HANDLE_LENGTH),
        serviceApiProjectId: randomBase62(HANDLE_LENGTH),
        assistantDefaultSelected: isAssistantDefaultSelected(connectorProvider),
        textSearchConfig,
      });
      const view = await this.dataSources.createView({
        sId: generatePrefixedSId('dsv'),
        workspaceId: caller.workspaceId,
        dataSourceId: dataSource.id,
        spaceId: space.id,
        kind: 'default',
        parentsIn: null,
        editedByUserId: caller.userId,
      });
      return { dataSource, view };
    });
  }

  /** Shares an existing data source of the workspace into a space, whole or in part (admins). */
  async addView(caller: Caller, spaceSId: string, input: NewViewInput): Promise<DataSourceView> {
    const parentsIn = parseParentsIn(input.parentsIn);
    const space = await this.spaces.findInWorkspace(caller, spaceSId);
    return this.unitOfWork.run(async () => {
      const dataSource = await this.dataSources.findDataSource(caller.workspaceId, input.dataSourceId);
      if (!dataSource) throw new UnknownDataSource(input.dataSourceId);
      if (await this.dataSources.viewExists(caller.workspaceId, dataSource.id, space.id)) {
        throw new DataSourceAlreadyInSpace({ dataSource: dataSource.sId, space: space.sId });
      }
      return this.dataSources.createView({
        sId: generatePrefixedSId('dsv'),
        workspaceId: caller.workspaceId,
        dataSourceId: dataSource.id,
        spaceId: space.id,
        kind: 'custom',
        parentsIn,
        editedByUserId: caller.userId,
      });
    });
  }

  /** Replaces what a view exposes (`parentsIn`), or changes it as Dust does (parents added, removed). */
  async updateView(
    caller: Caller,
    spaceSId: string,
    viewSId: string,
    parentsIn: string[] | null | ParentsChange,
  ): Promise<DataSourceView> {
    const replaced = Array.isArray(parentsIn) || parentsIn === null ? parseParentsIn(parentsIn) : null;
    return this.unitOfWork.run(async () => {
      const view = await this.viewInSpace(caller, spaceSId, viewSId);
      const updated = await this.dataSources.updateViewParents(caller.workspaceId, view.id, {
        parentsIn:
          Array.isArray(parentsIn) || parentsIn === null
            ? replaced
            : changedParentsIn(view.parentsIn, parentsIn),
        editedByUserId: caller.userId,
        at: this.clock.now(),
      });
      // Deleted by a concurrent request between the read and the write.
      if (!updated) throw new DataSourceViewNotFound(viewSId);
      return updated;
    });
  }

  /** Removes a custom view and returns it as it was. */
  async deleteView(caller: Caller, spaceSId: string, viewSId: string): Promise<DataSourceView> {
    return this.unitOfWork.run(async () => {
      const view = await this.viewInSpace(caller, spaceSId, viewSId);
      checkViewDeletable(view);
      // A concurrent deletion got there first: only one of them reports it.
      if (!(await this.dataSources.deleteView(caller.workspaceId, view.id))) {
        throw new DataSourceViewNotFound(viewSId);
      }
      return view;
    });
  }

  private async viewInSpace(caller: Caller, spaceSId: string, viewSId: string): Promise<DataSourceView> {
    const space = await this.spaces.findInWorkspace(caller, spaceSId);
    const view = await this.dataSources.findView(caller.workspaceId, space.id, viewSId);
    if (!view) throw new DataSourceViewNotFound(viewSId);
    return view;
  }
}
