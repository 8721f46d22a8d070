import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { SpacesService } from 'src/modules/identity/identity.api';
import { FragmentDocument, FragmentDocuments } from 'src/modules/conversations/conversations.api';
import { DataSourceRepository } from 'src/modules/data-sources/application/ports/data-source.repository';
import { DocumentRepository } from 'src/modules/data-sources/application/ports/document.repository';
import { viewShowsDocument } from 'src/modules/data-sources/domain/data-source-view';
import {
  FragmentDocumentNotFound,
  FragmentViewNotFound,
} from 'src/modules/data-sources/domain/data-sources.errors';
import { DOCUMENT_ID_MAX } from 'src/modules/data-sources/domain/document';

/** The documents content fragments show (conversations' `FragmentDocuments`), read as their caller may. */
@Injectable()
export class FragmentDocumentsService extends FragmentDocuments {
  constructor(
    private readonly dataSources: DataSourceRepository,
    private readonly documents: DocumentRepository,
    private readonly spaces: SpacesService,
  ) {
    super();
  }

  async read(caller: Caller, viewSId: string, documentId: string): Promise<FragmentDocument> {
    const spaces = await this.spaces.listAccessible(caller);
    const views = await this.dataSources.listViewsOfSpaces(
      caller.workspaceId,
      spaces.map((space) => space.id),
    );
    const view = views.find((candidate) => candidate.sId === viewSId);
    if (!view) throw new FragmentViewNotFound(viewSId);
    const document =
      documentId.length <= DOCUMENT_ID_MAX
        ? await this.documents.find(caller.workspaceId, view.dataSource.id, documentId)
        : null;
    if (!document || !viewShowsDocument(view.parentsIn, document.parents)) {
      throw new FragmentDocumentNotFound(documentId, viewSId);
    }
    return {
      documentId: document.documentId,
      viewSId: view.sId,
      spaceName: spaces.find((space) => space.id === view.spaceId)?.name ?? '',
      title: document.title,
      mimeType: document.mimeType,
      sourceUrl: document.sourceUrl,
      text: document.text,
    };
  }
}
