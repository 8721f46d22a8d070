import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { Caller } from 'src/platform/auth/caller';
import type { SignedUrlGrant } from 'src/platform/auth/url-signer';
import { Clock } from 'src/platform/clock/clock';
import {
  DomainError,
  ForbiddenError,
  InvalidRequestError,
  RateLimitError,
} from 'src/platform/errors/domain-error';
import { generatePrefixedSId } from 'src/platform/ids/sid';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { TokenBuckets } from 'src/platform/throttling/token-buckets';
import { ConversationsService } from 'src/modules/conversations/conversations.api';
import { SpacesService, WorkspacesService } from 'src/modules/identity/identity.api';
import { FileTextsService } from 'src/modules/files/application/file-texts.service';
import { BlobStorage } from 'src/modules/files/application/ports/blob-storage';
import { FileRepository } from 'src/modules/files/application/ports/file.repository';
import { UploadInspector } from 'src/modules/files/application/upload-inspector';
import { UploadLivenessService } from 'src/modules/files/application/upload-liveness.service';
import type { UploadSource } from 'src/modules/files/application/upload-source';
import { FileRecord, blobKey } from 'src/modules/files/domain/file';
import { sanitiseFileName } from 'src/modules/files/domain/file-name';
import { checkNewFile } from 'src/modules/files/domain/file-policy';
import { FileNotFound } from 'src/modules/files/domain/files.errors';
import { checkUseCaseMetadata } from 'src/modules/files/domain/use-case-metadata';
import { FilesConfig } from 'src/modules/files/files.config';
import { Counter, Metrics } from 'src/platform/observability/metrics';

export type NewFileInput = Pick<FileRecord, 'contentType' | 'fileName' | 'fileSize' | 'useCase'> &
  Partial<Pick<FileRecord, 'useCaseMetadata'>>;

export interface FileContent {
  file: FileRecord;
  content: Readable;
}

/** A ready file and the text read from it when it was uploaded (null for images and audio). */
export interface FileText {
  file: FileRecord;
  text: string | null;
}

@Injectable()
export class FilesService {
  private readonly creations: TokenBuckets<number>;
  private readonly uploadBytes: Counter;

  constructor(
    private readonly files: FileRepository,
    private readonly blobs: BlobStorage,
    private readonly texts: FileTextsService,
    private readonly spaces: SpacesService,
    private readonly workspaces: WorkspacesService,
    private readonly conversations: ConversationsService,
    private readonly liveness: UploadLivenessService,
    private readonly config: FilesConfig,
    private readonly clock: Clock,
    private readonly log: OperatorLog,
    metrics: Metrics,
  ) {
    this.creations = new TokenBuckets(config.createRatePerMinute, 60_000);
    this.uploadBytes = metrics.counter(
      'file_upload_bytes_total',
      'Bytes of file content uploaded and stored.',
    );
  }

  /** A `created` record whose content may be uploaded until `expiresAt`. */
  async create(caller: Caller, input: NewFileInput): Promise<FileRecord> {
    const contentType = checkNewFile(input, this.config.maxBytes);
    const fileName = sanitiseFileName(input.fileName);
    const useCaseMetadata = checkUseCaseMetadata(input.useCase, input.useCaseMetadata);
    if (useCaseMetadata.spaceId) await this.spaces.findAccessible(caller, useCaseMetadata.spaceId);
    // A conversation of this workspace that the caller can read; otherwise 404 / 403 as on a read.
    if (useCaseMetadata.conversationId) await this.conversations.get(caller, useCaseMetadata.conversationId);
    const waitMs = this.creations.take(caller.workspaceId);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new RateLimitError(
        `Too many files created in this workspace (at most ${this.config.createRatePerMinute} a minute): retry in ${seconds} s.`,
        seconds,
      );
    }
    // Whole seconds: the signed upload URL carries its expiry in seconds.
    const expiresAt = new Date(
      Math.floor(this.clock.now().getTime() / 1000 + this.config.uploadUrlTtlSeconds) * 1000,
    );
    return this.files.create({
      sId: generatePrefixedSId('fil'),
      workspaceId: caller.workspaceId,
      ownerSId: caller.userSId,
      contentType,
      fileName,
      fileSize: input.fileSize,
      useCase: input.useCase,
      useCaseMetadata,
      expiresAt,
    });
  }

  /**
   * A file of the caller's workspace; one of a space the caller cannot access, or of a conversation
   * the caller cannot read, is "not found".
   */
  async get(caller: Caller, fileSId: string): Promise<FileRecord> {
    const file = await this.files.find(caller.workspaceId, fileSId);
    if (!file || !(await this.canSee(caller, file))) throw new FileNotFound(fileSId);
    return file;
  }

  async download(caller: Caller, fileSId: string): Promise<FileContent> {
    const file = await this.get(caller, fileSId);
    return { file, content: await this.contentOf(file) };
  }

  /**
   * The text extracted from a `ready` file the caller can see (with its content type, name and
   * size on the record): how other contexts read a file's content as text.
   */
  async extractedText(caller: Caller, fileSId: string): Promise<FileText> {
    const file = await this.get(caller, fileSId);
    if (file.status !== 'ready') {
      throw new InvalidRequestError(`File ${fileSId} is ${file.status}: only a ready file can be used.`);
    }
    return { file, text: await this.files.findText(file.workspaceId, file.id) };
  }

  /** Avatars are shown to anyone who has their URL, without a key. */
  async readAvatar(workspaceSId: string, fileSId: string): Promise<FileContent> {
    const workspace = await this.workspaces.findBySId(workspaceSId);
    const file = workspace && (await this.files.find(workspace.id, fileSId));
    if (!file || file.useCase !== 'avatar' || file.status !== 'ready') throw new FileNotFound(fileSId);
    return { file, content: await this.contentOf(file) };
  }

  /** The owner or an admin deletes a file, its content with it. */
  async delete(caller: Caller, fileSId: string): Promise<void> {
    const file = await this.get(caller, fileSId);
    if (file.ownerSId !== caller.userSId && !caller.isAdmin) {
      throw new ForbiddenError('Only the member who created a file, or an admin, can delete it.');
    }
    if (!(await this.files.delete(caller.workspaceId, file.id))) throw new FileNotFound(fileSId);
    await this.liveness.discardContent(file);
  }

  /**
   * Stores the content of a `created` file, streamed from `source`, and makes the file `ready`.
   * Refused content (too large, empty, not of its type) or a broken request fails the file and
   * leaves no content behind. `access` is a key's caller, or the grant of the signed upload URL.
   */
  async upload(
    access: Caller | SignedUrlGrant,
    workspaceSId: string,
    fileSId: string,
    source: UploadSource,
  ): Promise<FileRecord> {
    const file = await this.uploadTarget(access, workspaceSId, fileSId);
    if (file.status !== 'created') {
      throw new InvalidRequestError(
        `File ${fileSId} is ${file.status}: content is uploaded once, to a file whose status is created.`,
      );
    }
    if (file.expiresAt <= this.clock.now()) {
      await this.files.markFailed(file.workspaceId, file.id, 'The upload window closed before an upload.');
      throw new InvalidRequestError(
        `The upload window of file ${fileSId} closed at ${file.expiresAt.toISOString()}: create the file again.`,
      );
    }
    // The request's form is checked before the claim, so a malformed one changes nothing.
    const content = await source.open(file.fileSize);
    if (!(await this.files.claimUpload(file.workspaceId, file.id, this.clock.now()))) {
      content.resume();
      throw new InvalidRequestError(`File ${fileSId} is already being uploaded, or is no longer uploadable.`);
    }
    return this.store(file, content);
  }

  private async store(file: FileRecord, content: Readable): Promise<FileRecord> {
    const inspector = new UploadInspector(file.contentType, file.fileSize);
    // The first failure of the content itself says why the upload failed (storage errors follow it).
    let refusal: unknown = null;
    for (const stream of [content, inspector]) stream.on('error', (error) => (refusal ??= error));
    return this.liveness.whileReceiving(file.id, async () => {
      try {
        await this.blobs.write(
          blobKey(file),
          pipeline(content, inspector, () => undefined),
          file.contentType,
        );
        const text = await this.texts.extract(file, () => this.storedContent(file));
        const ready = await this.files.markReady(file.workspaceId, file.id, inspector.passedBytes, text);
        // Deleted (or swept) while its content was arriving.
        if (!ready) throw new FileNotFound(file.sId);
        this.uploadBytes.inc(inspector.passedBytes);
        return ready;
      } catch (error) {
        const cause = refusal instanceof DomainError ? refusal : error;
        await this.liveness.discardContent(file);
        await this.files.markFailed(
          file.workspaceId,
          file.id,
          cause instanceof DomainError ? cause.message : 'The content could not be stored.',
        );
        throw cause;
      }
    });
  }

  private async uploadTarget(
    access: Caller | SignedUrlGrant,
    workspaceSId: string,
    fileSId: string,
  ): Promise<FileRecord> {
    if (access instanceof Caller) return this.get(access, fileSId);
    // The signature covers the path, so its workspace and file are the ones the URL was made for.
    const workspace = await this.workspaces.findBySId(workspaceSId);
    const file = workspace && (await this.files.find(workspace.id, fileSId));
    if (!file) throw new FileNotFound(fileSId);
    return file;
  }

  /** A file of a space goes with the space, a file of a conversation with that conversation. */
  private async canSee(caller: Caller, file: FileRecord): Promise<boolean> {
    const { spaceId, conversationId } = file.useCaseMetadata;
    if (spaceId && !(await this.spaces.listAccessible(caller)).some((space) => space.sId === spaceId)) {
      return false;
    }
    return !conversationId || this.conversations.canRead(caller, conversationId);
  }

  private async contentOf(file: FileRecord): Promise<Readable> {
    if (file.status !== 'ready') {
      throw new InvalidRequestError(`File ${file.sId} has no content: its status is ${file.status}.`);
    }
    return this.storedContent(file);
  }

  private async storedContent(file: FileRecord): Promise<Readable> {
    const content = await this.blobs.read(blobKey(file));
    if (!content) {
      this.log.error(FilesService.name, { file: file.sId }, 'A ready file has no content in blob storage');
      throw new FileNotFound(file.sId);
    }
    return content;
  }
}
