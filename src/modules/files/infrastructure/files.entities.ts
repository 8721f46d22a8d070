import type { FileStatus, FileUseCase, FileUseCaseMetadata } from 'src/modules/files/domain/file';
import { Column, Entity, Index, PrimaryGeneratedColumn, ValueTransformer } from 'typeorm';

const timestamptz = { type: 'timestamptz' } as const;

/** bigint comes back from pg as a string; file sizes stay far below 2^53. */
const bigintAsNumber: ValueTransformer = {
  to: (value: number) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

@Entity('files')
// The sweep's look-up: files still waiting for their upload, by the end of their window.
@Index('IDX_files_created_expires_at', ['expiresAt'], { where: "status = 'created'" })
export class FileEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index({ unique: true })
  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ name: 'owner_s_id', type: 'varchar', length: 32 })
  ownerSId!: string;

  @Column({ name: 'content_type', type: 'varchar', length: 255 })
  contentType!: string;

  @Column({ name: 'file_name', type: 'varchar', length: 255 })
  fileName!: string;

  @Column({ name: 'file_size', type: 'bigint', transformer: bigintAsNumber })
  fileSize!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: FileStatus;

  @Column({ name: 'use_case', type: 'varchar', length: 32 })
  useCase!: FileUseCase;

  @Column({ name: 'use_case_metadata', type: 'jsonb', default: () => "'{}'" })
  useCaseMetadata!: FileUseCaseMetadata;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @Column({ name: 'expires_at', ...timestamptz })
  expiresAt!: Date;

  /** Set by the one upload that claimed the file. */
  @Column({ name: 'upload_started_at', ...timestamptz, nullable: true })
  uploadStartedAt!: Date | null;

  /** Renewed by the process receiving the upload while it runs; a stale one means that process died. */
  @Column({ name: 'upload_heartbeat_at', ...timestamptz, nullable: true })
  uploadHeartbeatAt!: Date | null;

  /** Why the file failed, for operators (the API answered it to the uploader). */
  @Column({ name: 'failure_reason', type: 'varchar', length: 500, nullable: true })
  failureReason!: string | null;

  /** The text read once when the upload completed (files whose use case needs text); loaded on demand. */
  @Column({ name: 'extracted_text', type: 'text', nullable: true, select: false })
  extractedText!: string | null;

  /** UTF-8 bytes of `extracted_text`, so listings can show it without loading the text. */
  @Column({ name: 'text_bytes', type: 'int', nullable: true })
  textBytes!: number | null;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...timestamptz, default: () => 'now()' })
  updatedAt!: Date;
}

export const FILES_ENTITIES = [FileEntity];
