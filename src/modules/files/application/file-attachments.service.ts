import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { FileRepository } from 'src/modules/files/application/ports/file.repository';
import { FileNotFound } from 'src/modules/files/domain/files.errors';
import { FragmentFile, FragmentFiles } from 'src/modules/conversations/application/ports/fragment-files';

/**
 * Files put in conversations as content fragments. A file bound to a conversation is readable
 * exactly by that conversation's readers (see `FilesService.get`), so binding is the access rule.
 */
@Injectable()
export class FileAttachmentsService extends FragmentFiles {
  constructor(private readonly files: FileRepository) {
    super();
  }

  async attach(caller: Caller, fileSId: string, conversationSId: string): Promise<FragmentFile> {
    const file = await this.files.find(caller.workspaceId, fileSId);
    const boundTo = file?.useCaseMetadata.conversationId;
    // A file of another conversation is hidden from this one's writers as from anyone who cannot read it.
    if (!file || (boundTo !== undefined && boundTo !== conversationSId)) throw new FileNotFound(fileSId);
    if (file.useCase !== 'conversation') {
      throw new InvalidRequestError(
        `fileId: file ${fileSId} is a ${file.useCase} file; only conversation files can be attached.`,
      );
    }
    if (file.status !== 'ready') {
      throw new InvalidRequestError(
        `fileId: file ${fileSId} is ${file.status}; only a ready file can be attached.`,
      );
    }
    if (
      boundTo === undefined &&
      !(await this.files.bindToConversation(caller.workspaceId, file.id, conversationSId))
    ) {
      throw new FileNotFound(fileSId);
    }
    return {
      sId: file.sId,
      contentType: file.contentType,
      text: await this.files.findText(caller.workspaceId, file.id),
    };
  }
}
