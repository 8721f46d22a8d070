import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { SpacesService } from 'src/modules/identity/identity.api';
import { DocumentIndex, SearchTarget } from 'src/modules/data-sources/application/ports/document-index';
import {
  DocumentRepository,
  DocumentSummary,
} from 'src/modules/data-sources/application/ports/document.repository';
import { DataSourceRepository } from 'src/modules/data-sources/application/ports/data-source.repository';
import type { DataSourceView } from 'src/modules/data-sources/domain/data-source-view';
import { DataSourceViewNotFound } from 'src/modules/data-sources/domain/data-sources.errors';
import type { DataSourceDocument } from 'src/modules/data-sources/domain/document';
import {
  DocumentHit,
  ReachingView,
  checkFullTextAnswer,
  checkSearchQuery,
  checkTopK,
  groupHits,
  restrictedSpacesOf,
} from 'src/modules/data-sources/domain/document-search';

/** Documents read for a caller, with the restricted spaces that what they say belongs to. */
export interface ReadDocuments<T> {
  documents: T[];
  /** sIds of the regular spaces whose views showed them (none for what the global space shows). */
  restrictedSpaceSIds: string[];
}

/** What a view's search found: its data source, and each document with its best chunks. */
export interface ViewSearchResult {
  dataSourceSId: string;
  documents: { hit: DocumentHit; document: DocumentSummary; text: string | null }[];
}

/** The scope of a view, with its data source's text-search configuration. */
const targetOf = (view: DataSourceView): SearchTarget => ({
  dataSourceId: view.dataSource.id,
  parentsIn: view.parentsIn,
  textSearchConfig: view.dataSource.textSearchConfig,
});

/**
 * What a caller reaches of each data source through all its views: the whole data source if any
 * view shows all of it, else the union of the views' parents.
 */
function mergeTargets(views: DataSourceView[]): SearchTarget[] {
  const targets = new Map<number, SearchTarget>();
  for (const view of views) {
    const known = targets.get(view.dataSource.id);
    if (!known) targets.set(view.dataSource.id, targetOf(view));
    else if (known.parentsIn !== null) {
      known.parentsIn =
        view.parentsIn === null ? null : [...new Set([...known.parentsIn, ...view.parentsIn])];
    }
  }
  return [...targets.values()];
}

/** Searches documents through data source views: one view by route, or all a caller can read (agents). */
@Injectable()
export class DocumentSearchService {
  constructor(
    private readonly dataSources: DataSourceRepository,
    private readonly documents: DocumentRepository,
    private readonly index: DocumentIndex,
    private readonly spaces: SpacesService,
  ) {}

  /**
   * The best chunks of one view of a space the caller can access, within the view's parents, each
   * document with its stored fields and, with `fullText`, its whole text.
   */
  async searchView(
    caller: Caller,
    spaceSId: string,
    viewSId: string,
    search: { query: string | undefined; topK: number; fullText: boolean },
  ): Promise<ViewSearchResult> {
    const text = checkSearchQuery(search.query);
    checkTopK(search.topK);
    const { workspaceId } = caller;
    const space = await this.spaces.findAccessible(caller, spaceSId);
    const target = await this.dataSources.findSearchTarget(workspaceId, space.id, viewSId);
    if (!target) throw new DataSourceViewNotFound(viewSId);
    const hits = await this.search(workspaceId, [target], text, search.topK);
    const stored = await this.documents.findSummaries(
      workspaceId,
      target.dataSourceId,
      hits.map((hit) => hit.documentId),
    );
    const byId = new Map(stored.map((document) => [document.documentId, document]));
    // A document deleted since its chunks were ranked is left out.
    const found = hits.flatMap((hit) => {
      const document = byId.get(hit.documentId);
      return document ? [{ hit, document }] : [];
    });
    if (!search.fullText) {
      return {
        dataSourceSId: target.dataSourceSId,
        documents: found.map((each) => ({ ...each, text: null })),
      };
    }
    checkFullTextAnswer(found.map((each) => each.document));
    const texts = await this.documents.findTexts(
      workspaceId,
      target.dataSourceId,
      found.map((each) => each.document.documentId),
    );
    return {
      dataSourceSId: target.dataSourceSId,
      documents: found.map((each) => ({ ...each, text: texts.get(each.document.documentId) ?? null })),
    };
  }

  /** The best chunks of every view of the spaces the caller can read. */
  async searchReadable(caller: Caller, query: string, topK: number): Promise<ReadDocuments<DocumentHit>> {
    const text = checkSearchQuery(query);
    checkTopK(topK);
    const { views, reaching } = await this.readableViews(caller);
    const documents = await this.search(caller.workspaceId, mergeTargets(views), text, topK);
    return { documents, restrictedSpaceSIds: restrictedSpacesOf(documents, reaching) };
  }

  /** The most recent documents of every view of the spaces the caller can read, newest first. */
  async recentReadable(caller: Caller, limit: number): Promise<ReadDocuments<DataSourceDocument>> {
    const { views, reaching } = await this.readableViews(caller);
    const documents = await this.documents.recent(caller.workspaceId, mergeTargets(views), limit);
    return { documents, restrictedSpaceSIds: restrictedSpacesOf(documents, reaching) };
  }

  /** The views of the spaces the caller can access, and how each reaches its documents. */
  private async readableViews(
    caller: Caller,
  ): Promise<{ views: DataSourceView[]; reaching: ReachingView[] }> {
    const spaces = await this.spaces.listAccessible(caller);
    const views = await this.dataSources.listViewsOfSpaces(
      caller.workspaceId,
      spaces.map((space) => space.id),
    );
    const global = new Set(spaces.filter((space) => space.kind === 'global').map((space) => space.id));
    return {
      views,
      reaching: views.map((view) => ({
        dataSourceId: view.dataSource.id,
        parentsIn: view.parentsIn,
        spaceSId: view.spaceSId,
        openToAll: global.has(view.spaceId),
      })),
    };
  }

  private async search(
    workspaceId: number,
    targets: SearchTarget[],
    query: string,
    topK: number,
  ): Promise<DocumentHit[]> {
    const hits = [];
    for (const target of targets) hits.push(...(await this.index.search(workspaceId, target, query, topK)));
    return groupHits(hits, topK);
  }
}
