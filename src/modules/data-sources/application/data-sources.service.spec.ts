import type { ViewSearchTarget } from 'src/modules/data-sources/application/ports/document-index';
import { describe, expect, it } from '@jest/globals';
import { Caller } from 'src/platform/auth/caller';
import { SCOPES } from 'src/platform/auth/scopes';
import type { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { type SpacesService } from 'src/modules/identity/application/spaces.service';
import { type Space, SpaceNotFound } from 'src/modules/identity/identity.api';
import { DataSourcesService } from 'src/modules/data-sources/application/data-sources.service';
import {
  DataSourceRepository,
  NewDataSource,
  NewDataSourceView,
} from 'src/modules/data-sources/application/ports/data-source.repository';
import type { DataSource } from 'src/modules/data-sources/domain/data-source';
import type { DataSourceView } from 'src/modules/data-sources/domain/data-source-view';
import { DataSourceViewNotFound } from 'src/modules/data-sources/domain/data-sources.errors';

const WORKSPACE = 1;
const caller = new Caller(WORKSPACE, 'wsp', 'Workspace', 7, 'usr', 'admin', SCOPES, 'key_1');
const spaces: Space[] = [
  {
    id: 10,
    sId: 'vlt_global',
    workspaceId: WORKSPACE,
    name: 'Company Data',
    kind: 'global',
    createdAt: new Date(),
  },
  {
    id: 11,
    sId: 'vlt_finance',
    workspaceId: WORKSPACE,
    name: 'Finance',
    kind: 'regular',
    createdAt: new Date(),
  },
];

/** Only what the service needs of the identity context: spaces by sId. */
const fakeSpaces = {
  findInWorkspace: async (_caller: Caller, sId: string) => {
    const space = spaces.find((candidate) => candidate.sId === sId);
    if (!space) throw new SpaceNotFound(sId);
    return space;
  },
  findAccessible: async (_caller: Caller, sId: string) => fakeSpaces.findInWorkspace(_caller, sId),
} as unknown as SpacesService;

class InlineUnitOfWork extends UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
  runInLane<T>(_lane: string, work: () => Promise<T>): Promise<T> {
    return work();
  }
  afterCommit(callback: () => void): void {
    callback();
  }
  async all<T extends readonly unknown[]>(reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
    const results: unknown[] = [];
    for (const read of reads as readonly (() => Promise<unknown>)[]) results.push(await read());
    return results as unknown as T;
  }
}

class InMemoryDataSources extends DataSourceRepository {
  readonly dataSources: DataSource[] = [];
  readonly views: DataSourceView[] = [];
  /** Simulates a deletion that lands between the service's read and its write. */
  deleteBeforeNextUpdate = false;

  async createDataSource(input: NewDataSource): Promise<DataSource> {
    const dataSource = { ...input, id: this.dataSources.length + 1, createdAt: new Date() };
    this.dataSources.push(dataSource);
    return dataSource;
  }
  async findDataSource(workspaceId: number, sId: string): Promise<DataSource | null> {
    return this.dataSources.find((d) => d.workspaceId === workspaceId && d.sId === sId) ?? null;
  }
  async dataSourceNameExists(workspaceId: number, name: string): Promise<boolean> {
    return this.dataSources.some(
      (d) => d.workspaceId === workspaceId && d.name.toLowerCase() === name.toLowerCase(),
    );
  }
  async findDataSourceOwnedBy(workspaceId: number, spaceId: number, sId: string): Promise<DataSource | null> {
    const view = this.views.find(
      (v) =>
        v.workspaceId === workspaceId &&
        v.spaceId === spaceId &&
        v.kind === 'default' &&
        v.dataSource.sId === sId,
    );
    return view?.dataSource ?? null;
  }
  async textSearchConfigExists(name: string): Promise<boolean> {
    return ['simple', 'english', 'french'].includes(name);
  }
  async createView(input: NewDataSourceView): Promise<DataSourceView> {
    const at = new Date();
    const view: DataSourceView = {
      id: this.views.length + 1,
      sId: input.sId,
      workspaceId: input.workspaceId,
      spaceId: input.spaceId,
      spaceSId: spaces.find((s) => s.id === input.spaceId)!.sId,
      kind: input.kind,
      parentsIn: input.parentsIn,
      dataSource: this.dataSources.find((d) => d.id === input.dataSourceId)!,
      editedBy: {
        userId: input.editedByUserId,
        userSId: 'Ada0000001',
        fullName: 'Ada Lovelace',
        email: 'ada@example.com',
        image: null,
      },
      editedAt: at,
      createdAt: at,
      updatedAt: at,
    };
    this.views.push(view);
    return view;
  }
  async findView(workspaceId: number, spaceId: number, sId: string): Promise<DataSourceView | null> {
    return (
      this.views.find((v) => v.workspaceId === workspaceId && v.spaceId === spaceId && v.sId === sId) ?? null
    );
  }
  async findSearchTarget(
    workspaceId: number,
    spaceId: number,
    sId: string,
  ): Promise<ViewSearchTarget | null> {
    const view = await this.findView(workspaceId, spaceId, sId);
    return view
      ? {
          dataSourceId: view.dataSource.id,
          parentsIn: view.parentsIn,
          textSearchConfig: view.dataSource.textSearchConfig,
          dataSourceSId: view.dataSource.sId,
        }
      : null;
  }
  async viewExists(workspaceId: number, dataSourceId: number, spaceId: number): Promise<boolean> {
    return this.views.some(
      (v) => v.workspaceId === workspaceId && v.dataSource.id === dataSourceId && v.spaceId === spaceId,
    );
  }
  async listViews(workspaceId: number, spaceId: number): Promise<DataSourceView[]> {
    return this.views.filter((v) => v.workspaceId === workspaceId && v.spaceId === spaceId);
  }
  async listViewsOfSpaces(workspaceId: number, spaceIds: number[]): Promise<DataSourceView[]> {
    return this.views.filter((v) => v.workspaceId === workspaceId && spaceIds.includes(v.spaceId));
  }
  async updateViewParents(
    workspaceId: number,
    viewId: number,
    change: { parentsIn: string[] | null; editedByUserId: number; at: Date },
  ): Promise<DataSourceView | null> {
    if (this.deleteBeforeNextUpdate) await this.deleteView(workspaceId, viewId);
    const view = this.views.find((v) => v.workspaceId === workspaceId && v.id === viewId);
    if (!view) return null;
    Object.assign(view, { parentsIn: change.parentsIn, editedAt: change.at, updatedAt: change.at });
    return view;
  }
  async deleteView(workspaceId: number, viewId: number): Promise<boolean> {
    const index = this.views.findIndex((v) => v.workspaceId === workspaceId && v.id === viewId);
    if (index === -1) return false;
    this.views.splice(index, 1);
    return true;
  }
}

const clock: Clock = { now: () => new Date('2026-01-02T00:00:00Z') };

const setUp = () => {
  const repository = new InMemoryDataSources();
  return {
    repository,
    service: new DataSourcesService(repository, fakeSpaces, new InlineUnitOfWork(), clock),
  };
};

describe('DataSourcesService', () => {
  it('creates a data source with opaque handles and a default view of all of it', async () => {
    const { service } = setUp();
    const { dataSource, view } = await service.create(caller, 'vlt_global', {
      name: ' Docs site ',
      connectorProvider: 'webcrawler',
    });
    expect(dataSource).toMatchObject({
      sId: expect.stringMatching(/^dts_/),
      name: 'Docs site',
      description: '',
      connectorProvider: 'webcrawler',
      assistantDefaultSelected: false,
    });
    expect(dataSource.connectorId).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(dataSource.serviceApiProjectId).not.toBe(dataSource.connectorId);
    expect(view).toMatchObject({ kind: 'default', parentsIn: null, spaceSId: 'vlt_global' });
  });

  it('checks the input before writing anything', async () => {
    const { service, repository } = setUp();
    await expect(
      service.create(caller, 'vlt_global', { name: 'X', connectorProvider: 'dropbox' }),
    ).rejects.toThrow(/^connectorProvider: /);
    await expect(service.create(caller, 'vlt_nowhere', { name: 'X' })).rejects.toThrow(SpaceNotFound);
    expect(repository.dataSources).toEqual([]);
  });

  it('reports a view deleted between its read and its update as not found', async () => {
    const { service, repository } = setUp();
    const { dataSource } = await service.create(caller, 'vlt_global', { name: 'Wiki' });
    const custom = await service.addView(caller, 'vlt_finance', {
      dataSourceId: dataSource.sId,
      parentsIn: ['a'],
    });
    repository.deleteBeforeNextUpdate = true;
    await expect(service.updateView(caller, 'vlt_finance', custom.sId, null)).rejects.toThrow(
      DataSourceViewNotFound,
    );
  });

  it('deletes a custom view but never the default one', async () => {
    const { service, repository } = setUp();
    const { dataSource, view } = await service.create(caller, 'vlt_global', { name: 'Wiki' });
    const custom = await service.addView(caller, 'vlt_finance', { dataSourceId: dataSource.sId });
    await expect(service.deleteView(caller, 'vlt_global', view.sId)).rejects.toThrow(/default view/);
    expect(await service.deleteView(caller, 'vlt_finance', custom.sId)).toEqual(custom);
    expect(repository.views.map((v) => v.sId)).toEqual([view.sId]);
  });
});
