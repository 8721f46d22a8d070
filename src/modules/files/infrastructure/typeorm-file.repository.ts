import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { FileRepository, NewFile } from 'src/modules/files/application/ports/file.repository';
import type { FileRecord } from 'src/modules/files/domain/file';
import { FileEntity } from 'src/modules/files/infrastructure/files.entities';
import { In } from 'typeorm';

const FAILURE_REASON_MAX = 500;

const toFile = (e: FileEntity): FileRecord => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  ownerSId: e.ownerSId,
  contentType: e.contentType,
  fileName: e.fileName,
  fileSize: e.fileSize,
  status: e.status,
  useCase: e.useCase,
  useCaseMetadata: e.useCaseMetadata,
  textBytes: e.textBytes,
  version: e.version,
  expiresAt: e.expiresAt,
  createdAt: e.createdAt,
});

@Injectable()
export class TypeormFileRepository extends FileRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get files() {
    return this.db.repository(FileEntity);
  }

  async create(file: NewFile): Promise<FileRecord> {
    const entity = this.files.create({
      ...file,
      status: 'created',
      version: 1,
      uploadStartedAt: null,
      uploadHeartbeatAt: null,
      failureReason: null,
      extractedText: null,
      textBytes: null,
    });
    return toFile(await this.files.save(entity));
  }

  async find(workspaceId: number, sId: string): Promise<FileRecord | null> {
    const found = await this.files.findOneBy({ workspaceId, sId });
    return found && toFile(found);
  }

  async claimUpload(workspaceId: number, fileId: number, now: Date): Promise<boolean> {
    const result = await this.files
      .createQueryBuilder()
      .update()
      .set({
        uploadStartedAt: now,
        uploadHeartbeatAt: now,
        version: () => 'version + 1',
        updatedAt: () => 'now()',
      })
      .where('id = :fileId AND workspace_id = :workspaceId', { fileId, workspaceId })
      .andWhere("status = 'created' AND upload_started_at IS NULL AND expires_at > :now", { now })
      .execute();
    return result.affected === 1;
  }

  markReady(
    workspaceId: number,
    fileId: number,
    fileSize: number,
    text: string | null,
  ): Promise<FileRecord | null> {
    return this.leaveCreated(workspaceId, fileId, {
      status: 'ready',
      fileSize,
      extractedText: text,
      textBytes: text === null ? null : Buffer.byteLength(text),
    });
  }

  async bindToConversation(workspaceId: number, fileId: number, conversationSId: string): Promise<boolean> {
    const result = await this.files
      .createQueryBuilder()
      .update()
      .set({
        useCaseMetadata: () =>
          `use_case_metadata || jsonb_build_object('conversationId', :conversationSId::text)`,
        version: () => 'version + 1',
        updatedAt: () => 'now()',
      })
      .where('id = :fileId AND workspace_id = :workspaceId', { fileId, workspaceId })
      .andWhere(
        "(use_case_metadata->>'conversationId' IS NULL OR use_case_metadata->>'conversationId' = :conversationSId)",
      )
      .setParameters({ conversationSId })
      .execute();
    return result.affected === 1;
  }

  async findText(workspaceId: number, fileId: number): Promise<string | null> {
    const found = await this.files.findOne({
      select: { id: true, extractedText: true },
      where: { id: fileId, workspaceId },
    });
    return found?.extractedText ?? null;
  }

  markFailed(workspaceId: number, fileId: number, reason: string): Promise<FileRecord | null> {
    return this.leaveCreated(workspaceId, fileId, {
      status: 'failed',
      failureReason: reason.slice(0, FAILURE_REASON_MAX),
    });
  }

  async delete(workspaceId: number, fileId: number): Promise<boolean> {
    const result = await this.files.delete({ id: fileId, workspaceId });
    return result.affected === 1;
  }

  async beatUploads(fileIds: number[], now: Date): Promise<void> {
    if (fileIds.length === 0) return;
    await this.files
      .createQueryBuilder()
      .update()
      .set({ uploadHeartbeatAt: now })
      .where("id IN (:...fileIds) AND status = 'created'", { fileIds })
      .execute();
  }

  async failStalled(
    now: Date,
    limits: { heartbeatSince: Date; uploadStartedSince: Date },
    limit: number,
  ): Promise<FileRecord[]> {
    // SKIP LOCKED: a row that another process is failing at this moment is left to it.
    const [rows] = await this.db.manager().query<[{ id: number }[], number]>(
      `UPDATE files SET status = 'failed', version = version + 1, updated_at = now(),
         failure_reason = CASE WHEN upload_started_at IS NULL THEN $5 ELSE $6 END
       WHERE id IN (
         SELECT id FROM files
         WHERE status = 'created' AND (
           (upload_started_at IS NULL AND expires_at <= $1)
           OR upload_heartbeat_at < $2
           OR (upload_heartbeat_at IS NULL AND upload_started_at < $3 AND expires_at <= $1))
         ORDER BY expires_at
         LIMIT $4
         FOR UPDATE SKIP LOCKED
       )
       RETURNING id`,
      [
        now,
        limits.heartbeatSince,
        limits.uploadStartedSince,
        limit,
        'The upload window closed before an upload completed.',
        'The upload stopped with the process that was receiving it.',
      ],
    );
    if (rows.length === 0) return [];
    return (await this.files.findBy({ id: In(rows.map((row) => row.id)) })).map(toFile);
  }

  /** `created` → another status in one conditional UPDATE, so that only one change ever wins. */
  private async leaveCreated(
    workspaceId: number,
    fileId: number,
    change: Partial<
      Pick<FileEntity, 'status' | 'fileSize' | 'failureReason' | 'extractedText' | 'textBytes'>
    >,
  ): Promise<FileRecord | null> {
    const result = await this.files
      .createQueryBuilder()
      .update()
      .set({ ...change, version: () => 'version + 1', updatedAt: () => 'now()' })
      .where("id = :fileId AND workspace_id = :workspaceId AND status = 'created'", { fileId, workspaceId })
      .execute();
    if (result.affected !== 1) return null;
    return toFile(await this.files.findOneByOrFail({ id: fileId, workspaceId }));
  }
}
