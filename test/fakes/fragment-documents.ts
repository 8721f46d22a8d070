import type { Caller } from 'src/platform/auth/caller';
import { DomainError } from 'src/platform/errors/domain-error';
import {
  FragmentDocument,
  FragmentDocuments,
} from 'src/modules/conversations/application/ports/fragment-documents';

/** Documents by view and id, each readable by the members listed with it. */
export class InMemoryFragmentDocuments extends FragmentDocuments {
  private readonly documents: (FragmentDocument & { workspaceId: number; readers: number[] })[] = [];

  add(workspaceId: number, readers: number[], document: FragmentDocument): void {
    this.documents.push({ ...document, workspaceId, readers });
  }

  async read(caller: Caller, viewSId: string, documentId: string): Promise<FragmentDocument> {
    const found = this.documents.find(
      (document) =>
        document.workspaceId === caller.workspaceId &&
        document.readers.includes(caller.userId) &&
        document.viewSId === viewSId &&
        document.documentId === documentId,
    );
    if (!found)
      throw new DomainError('data_source_document_not_found', `nodeId: document "${documentId}" not found.`);
    const { workspaceId: _workspaceId, readers: _readers, ...document } = found;
    return document;
  }
}
