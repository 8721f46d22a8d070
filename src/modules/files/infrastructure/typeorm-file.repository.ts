import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { FileRepository, NewFile } from 'src/modules/files/application/ports/file.repository';
import type { FileRecord } from 'src/modules/files/domain/file';
import { FileEntity } from 'src/modules/files/infrastructure/file.entity';
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
      failureReason: null,
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
      .set({ uploadStartedAt: now, version: () => 'version + 1', updatedAt: () => 'now()' })
      .where('id = :fileId AND workspace_id = :workspaceId', { fileId, workspaceId })
      .andWhere("status = 'created' AND upload_started_at IS NULL AND expires_at > :now", { now })
      .execute();
    return result.affected === 1;
  }

  markReady(workspaceId: number, fileId: number, fileSize: number): Promise<FileRecord | null> {
    return this.leaveCreated(workspaceId, fileId, { status: 'ready', fileSize });
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

  async failExpired(now: Date, uploadStartedSince: Date, limit: number): Promise<FileRecord[]> {
    // SKIP LOCKED: a row that another process is failing at this moment is left to it.
    const [rows] = await this.db.manager().query<[{ id: number }[], number]>(
      `UPDATE files SET status = 'failed', failure_reason = $4, version = version + 1, updated_at = now()
       WHERE id IN (
         SELECT id FROM files
         WHERE status = 'created' AND expires_at <= $1
           AND (upload_started_at IS NULL OR upload_started_at < $2)
         ORDER BY expires_at
         LIMIT $3
         FOR UPDATE SKIP LOCKED
       )
       RETURNING id`,
      [now, uploadStartedSince, limit, 'The upload window closed before an upload completed.'],
    );
    if (rows.length === 0) return [];
    return (await this.files.findBy({ id: In(rows.map((row) => row.id)) })).map(toFile);
  }

  /** `created` → another status in one conditional UPDATE, so that only one change ever wins. */
  private async leaveCreated(
    workspaceId: number,
    fileId: number,
    change: Partial<Pick<FileEntity, 'status' | 'fileSize' | 'failureReason'>>,
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
