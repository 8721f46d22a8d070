import { Metrics } from 'src/platform/observability/metrics';
import { describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { Caller } from 'src/platform/auth/caller';
import { SCOPES } from 'src/platform/auth/scopes';
import type { Clock } from 'src/platform/clock/clock';
import { RateLimitError } from 'src/platform/errors/domain-error';
import type { OperatorLog } from 'src/platform/logging/operator-log';
import type { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import type { SpacesService } from 'src/modules/identity/application/spaces.service';
import type { WorkspacesService } from 'src/modules/identity/application/workspaces.service';
import { FileTextsService } from 'src/modules/files/application/file-texts.service';
import { FilesService } from 'src/modules/files/application/files.service';
import { UploadLivenessService } from 'src/modules/files/application/upload-liveness.service';
import { BlobStorage } from 'src/modules/files/application/ports/blob-storage';
import type { DocumentParser } from 'src/modules/files/application/ports/document-parser';
import { FileRepository, NewFile } from 'src/modules/files/application/ports/file.repository';
import { FileRecord, blobKey } from 'src/modules/files/domain/file';
import { FilesConfig } from 'src/modules/files/files.config';
import { ConversationsConfig } from 'src/modules/conversations/conversations.config';

class MemoryFiles extends FileRepository {
  readonly rows = new Map<number, FileRecord & { claimed: boolean; heartbeat?: Date; reason?: string }>();
  private nextId = 1;

  async create(file: NewFile): Promise<FileRecord> {
    const row = {
      ...file,
      id: this.nextId++,
      status: 'created' as const,
      version: 1,
      textBytes: null,
      createdAt: new Date(),
      claimed: false,
    };
    this.rows.set(row.id, row);
    return { ...row };
  }
  async find(workspaceId: number, sId: string): Promise<FileRecord | null> {
    return [...this.rows.values()].find((r) => r.workspaceId === workspaceId && r.sId === sId) ?? null;
  }
  async claimUpload(_workspaceId: number, fileId: number, now: Date): Promise<boolean> {
    const row = this.rows.get(fileId);
    if (!row || row.status !== 'created' || row.claimed || row.expiresAt <= now) return false;
    row.claimed = true;
    row.heartbeat = now;
    return true;
  }
  async markReady(_workspaceId: number, fileId: number, fileSize: number): Promise<FileRecord | null> {
    const row = this.rows.get(fileId);
    if (!row || row.status !== 'created') return null;
    Object.assign(row, { status: 'ready', fileSize, version: row.version + 1 });
    return { ...row };
  }
  async bindToConversation(): Promise<boolean> {
    return true;
  }
  async findText(): Promise<string | null> {
    return null;
  }
  async markFailed(_workspaceId: number, fileId: number, reason: string): Promise<FileRecord | null> {
    const row = this.rows.get(fileId);
    if (!row || row.status !== 'created') return null;
    Object.assign(row, { status: 'failed', reason });
    return { ...row };
  }
  async delete(_workspaceId: number, fileId: number): Promise<boolean> {
    return this.rows.delete(fileId);
  }
  async beatUploads(fileIds: number[], now: Date): Promise<void> {
    for (const id of fileIds) {
      const row = this.rows.get(id);
      if (row?.status === 'created') row.heartbeat = now;
    }
  }
  async failStalled(now: Date, limits: { heartbeatSince: Date }, limit: number): Promise<FileRecord[]> {
    const due = [...this.rows.values()]
      .filter(
        (r) =>
          r.status === 'created' && (r.claimed ? r.heartbeat! < limits.heartbeatSince : r.expiresAt <= now),
      )
      .slice(0, limit);
    for (const row of due) row.status = 'failed';
    return due.map((row) => ({ ...row }));
  }
}

class MemoryBlobs extends BlobStorage {
  readonly blobs = new Map<string, Buffer>();
  failWrites = false;
  onWrite: () => void = () => undefined;

  async write(key: string, content: Readable): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of content) chunks.push(chunk as Buffer);
    this.onWrite();
    if (this.failWrites) throw new Error('disk full');
    this.blobs.set(key, Buffer.concat(chunks));
  }
  async read(key: string): Promise<Readable | null> {
    const blob = this.blobs.get(key);
    return blob ? Readable.from([blob]) : null;
  }
  async delete(key: string): Promise<void> {
    this.blobs.delete(key);
  }
  async keepDraftsAlive(): Promise<void> {}
  async removeAbandonedDrafts(): Promise<number> {
    return 0;
  }
}

const caller = new Caller(
  7,
  'wsp0000001',
  'Workspace',
  3,
  'usr0000001',
  'user',
  [...SCOPES],
  'key_0000000001',
);
const source = (...chunks: string[]) => ({
  open: async () => Readable.from(chunks.map((c) => Buffer.from(c))),
});

const log: OperatorLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

function setUp(rate = 40) {
  // Fixed for the test: the moment it starts.
  const startedAt = new Date();
  const clock: Clock = { now: () => startedAt };
  const files = new MemoryFiles();
  const blobs = new MemoryBlobs();
  const config = FilesConfig.from({ FILE_CREATE_RATE_PER_MINUTE: String(rate) });
  const liveness = new UploadLivenessService(files, blobs, config, clock, log);
  const service = new FilesService(
    files,
    blobs,
    new FileTextsService({} as DocumentParser, config, ConversationsConfig.from({}), log),
    {} as SpacesService,
    { findBySId: async () => null } as unknown as WorkspacesService,
    {} as ConversationsService,
    liveness,
    config,
    clock,
    log,
    new Metrics(),
  );
  const create = () =>
    service.create(caller, {
      contentType: 'text/plain',
      fileName: 'a.txt',
      fileSize: 10,
      useCase: 'conversation',
    });
  return { files, blobs, service, liveness, create };
}

describe('FilesService', () => {
  it('stores an upload and makes the file ready with its real size', async () => {
    const { blobs, service, create } = setUp();
    const file = await create();
    const ready = await service.upload(caller, caller.workspaceSId, file.sId, source('hello', ' you'));
    expect(ready).toMatchObject({ status: 'ready', fileSize: 9 });
    expect(blobs.blobs.get(blobKey(file))?.toString()).toBe('hello you');
  });

  it('fails the file and keeps nothing when storage fails', async () => {
    const { files, blobs, service, create } = setUp();
    const file = await create();
    blobs.failWrites = true;
    await expect(service.upload(caller, caller.workspaceSId, file.sId, source('hello'))).rejects.toThrow(
      'disk full',
    );
    expect(files.rows.get(file.id)).toMatchObject({
      status: 'failed',
      reason: 'The content could not be stored.',
    });
    expect(blobs.blobs.size).toBe(0);
  });

  it('removes the content of a file deleted while it was uploading', async () => {
    const { files, blobs, service, create } = setUp();
    const file = await create();
    blobs.onWrite = () => files.rows.delete(file.id);
    await expect(
      service.upload(caller, caller.workspaceSId, file.sId, source('hello')),
    ).rejects.toMatchObject({
      code: 'file_not_found',
    });
    expect(blobs.blobs.size).toBe(0);
  });

  it('limits creations per workspace, saying when to retry', async () => {
    const { create } = setUp(2);
    await create();
    await create();
    const refusal = await create().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RateLimitError);
    expect((refusal as RateLimitError).retryAfterSeconds).toBe(30);
  });

  it('sweeps expired files in batches and deletes what they left', async () => {
    const { files, blobs, liveness, create } = setUp(1000);
    const created = await Promise.all(Array.from({ length: 150 }, () => create()));
    for (const file of created) blobs.blobs.set(blobKey(file), Buffer.from('partial'));
    const later = new Date(Date.now() + 3_600_000);
    expect(await liveness.sweepExpired(later)).toBe(150);
    expect([...files.rows.values()].every((row) => row.status === 'failed')).toBe(true);
    expect(blobs.blobs.size).toBe(0);
  });

  it('fails an upload whose heartbeat stopped, and not one whose process keeps it beating', async () => {
    const { files, liveness, create } = setUp(1000);
    const [dead, alive] = await Promise.all([create(), create()]);
    const claimedAt = new Date();
    for (const file of [dead, alive]) await files.claimUpload(file.workspaceId, file.id, claimedAt);
    const sweepMs = FilesConfig.from({}).sweepIntervalSeconds * 1000;
    // The window is still open: only the stopped heartbeat fails the file.
    const later = new Date(claimedAt.getTime() + 2 * sweepMs + 1);
    await files.beatUploads([alive.id], new Date(later.getTime() - liveness.uploadHeartbeatMs));
    expect(await liveness.sweepExpired(later)).toBe(1);
    expect(files.rows.get(dead.id)?.status).toBe('failed');
    expect(files.rows.get(alive.id)?.status).toBe('created');
  });
});
