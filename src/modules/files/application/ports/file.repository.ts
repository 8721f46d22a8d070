import type { FileRecord } from 'src/modules/files/domain/file';

/** A record to create: what the database does not decide itself (id, status, version, time). */
export type NewFile = Omit<FileRecord, 'id' | 'status' | 'version' | 'createdAt' | 'textBytes'>;

/** Port: persistence of file records. Every read and write of one file takes its workspace. */
export abstract class FileRepository {
  abstract create(file: NewFile): Promise<FileRecord>;
  abstract find(workspaceId: number, sId: string): Promise<FileRecord | null>;

  /**
   * Starts the one upload of a `created` file whose window is still open: true for exactly one of
   * several concurrent callers, false when the file is not (or no longer) uploadable.
   */
  abstract claimUpload(workspaceId: number, fileId: number, now: Date): Promise<boolean>;
  /**
   * `created` → `ready` with the stored size and the extracted text (null when none); null when the
   * file left `created` meanwhile.
   */
  abstract markReady(
    workspaceId: number,
    fileId: number,
    fileSize: number,
    text: string | null,
  ): Promise<FileRecord | null>;
  /**
   * Binds a file to a conversation (its `useCaseMetadata.conversationId`) unless it is bound to
   * another one already; true when it is now bound to `conversationSId`.
   */
  abstract bindToConversation(workspaceId: number, fileId: number, conversationSId: string): Promise<boolean>;
  /** The text extracted from a file, or null when none was. */
  abstract findText(workspaceId: number, fileId: number): Promise<string | null>;
  /** `created` → `failed`, keeping why; null when the file had already left `created`. */
  abstract markFailed(workspaceId: number, fileId: number, reason: string): Promise<FileRecord | null>;
  /** True when a record was deleted. */
  abstract delete(workspaceId: number, fileId: number): Promise<boolean>;

  /** Marks the uploads of these files alive (the ones still `created`). */
  abstract beatUploads(fileIds: number[], now: Date): Promise<void>;

  /**
   * Fails up to `limit` files still `created` that no upload can complete any more: never claimed
   * and their window closed, or claimed by an upload whose heartbeat stopped before
   * `heartbeatSince` (its process died). An upload claimed without a heartbeat (before heartbeats
   * existed) counts as dead once it began before `uploadStartedSince` and the window closed. Each
   * file is returned to one caller only, however many processes sweep at once.
   */
  abstract failStalled(
    now: Date,
    limits: { heartbeatSince: Date; uploadStartedSince: Date },
    limit: number,
  ): Promise<FileRecord[]>;
}
