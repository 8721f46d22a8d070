import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { readWhole } from 'src/modules/files/application/bounded-read';
import { BlobStorage } from 'src/modules/files/application/ports/blob-storage';
import { FileRepository } from 'src/modules/files/application/ports/file.repository';
import { blobKey } from 'src/modules/files/domain/file';
import { FileNotFound } from 'src/modules/files/domain/files.errors';
import { FragmentFile, FragmentFiles } from 'src/modules/conversations/conversations.api';

/** Image types a model may be shown (those uploads check by their first bytes). */
const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** An image a content fragment shows; `data` is null when it is larger than the bytes offered. */
export interface FragmentImage {
  contentType: string;
  size: number;
  data: Buffer | null;
}

/**
 * Files put in conversations as content fragments. A file bound to a conversation is readable
 * exactly by that conversation's readers (see `FilesService.get`), so binding is the access rule.
 */
@Injectable()
export class FileAttachmentsService extends FragmentFiles {
  constructor(
    private readonly files: FileRepository,
    private readonly blobs: BlobStorage,
  ) {
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

  /**
   * The content of an image a content fragment of the workspace shows, for a run's model: read
   * only when it fits in `maxBytes`. Null when the file is gone (deleted since) or not a ready image.
   * The fragment is the access rule: whoever runs in its conversation may read it (forks included).
   */
  async imageOfFragment(
    workspaceId: number,
    fileSId: string,
    maxBytes: number,
  ): Promise<FragmentImage | null> {
    const file = await this.files.find(workspaceId, fileSId);
    if (!file || file.status !== 'ready' || !MODEL_IMAGE_TYPES.has(file.contentType)) return null;
    const image = { contentType: file.contentType, size: file.fileSize };
    if (file.fileSize > maxBytes) return { ...image, data: null };
    const content = await this.blobs.read(blobKey(file));
    if (!content) return null;
    const data = await readWhole(content, maxBytes);
    return data === null ? { ...image, data: null } : { ...image, size: data.length, data };
  }
}
