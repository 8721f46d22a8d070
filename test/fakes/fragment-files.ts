import type { Caller } from 'src/platform/auth/caller';
import { DomainError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { FragmentFile, FragmentFiles } from 'src/modules/conversations/application/ports/fragment-files';
import type { InMemoryUnitOfWork, TransactionalState } from 'test/fakes/unit-of-work';

type StoredFile = FragmentFile & { workspaceId: number; conversationSId: string | null };

/** Ready files of workspaces, bound to a conversation (in the caller's transaction) when a fragment shows them. */
export class InMemoryFragmentFiles extends FragmentFiles implements TransactionalState {
  private files = new Map<string, StoredFile>();

  constructor(unitOfWork?: InMemoryUnitOfWork) {
    super();
    unitOfWork?.enlist(this);
  }

  add(workspaceId: number, file: FragmentFile): void {
    this.files.set(file.sId, { ...file, workspaceId, conversationSId: null });
  }

  async attach(caller: Caller, fileSId: string, conversationSId: string): Promise<FragmentFile> {
    const file = this.files.get(fileSId);
    if (!file || file.workspaceId !== caller.workspaceId) {
      throw new DomainError('file_not_found', `File ${fileSId} not found.`);
    }
    if (file.conversationSId !== null && file.conversationSId !== conversationSId) {
      throw new InvalidRequestError(`contentFragments: file ${fileSId} belongs to another conversation.`);
    }
    file.conversationSId = conversationSId;
    return { sId: file.sId, contentType: file.contentType, text: file.text };
  }

  snapshot(): unknown {
    return structuredClone(this.files);
  }

  restore(snapshot: unknown): void {
    this.files = snapshot as Map<string, StoredFile>;
  }
}
