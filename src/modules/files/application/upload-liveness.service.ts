import { Injectable } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { BlobStorage } from 'src/modules/files/application/ports/blob-storage';
import { FileRepository } from 'src/modules/files/application/ports/file.repository';
import { FileRecord, blobKey } from 'src/modules/files/domain/file';
import { FilesConfig } from 'src/modules/files/files.config';

/**
 * An upload that began this long ago is no longer running (Node ends a request after 5 minutes):
 * the sweep may fail its file. Only for uploads claimed before heartbeats were recorded.
 */
export const UPLOAD_MAX_DURATION_MS = 60 * 60 * 1000;
/** Heartbeats per sweep interval, and sweep intervals without one after which an upload is dead. */
const HEARTBEATS_PER_SWEEP = 4;
const SWEEPS_BEFORE_DEAD = 2;
const SWEEP_BATCH = 100;

/**
 * Which uploads are still running: this process marks the ones it receives alive, and the sweep
 * (in every process) fails the files whose upload can no longer complete.
 */
@Injectable()
export class UploadLivenessService {
  /** Ids of the files whose upload this process is receiving. */
  private readonly receiving = new Set<number>();

  constructor(
    private readonly files: FileRepository,
    private readonly blobs: BlobStorage,
    private readonly config: FilesConfig,
    private readonly clock: Clock,
    private readonly log: OperatorLog,
  ) {}

  /** Runs `work`, the receipt of a file's content, with the file marked alive by this process. */
  async whileReceiving<T>(fileId: number, work: () => Promise<T>): Promise<T> {
    this.receiving.add(fileId);
    try {
      return await work();
    } finally {
      this.receiving.delete(fileId);
    }
  }

  /** How often a process marks its uploads (and their partial content) alive. */
  get uploadHeartbeatMs(): number {
    return (this.config.sweepIntervalSeconds * 1000) / HEARTBEATS_PER_SWEEP;
  }

  /** Marks the uploads this process is receiving, and their partial content, alive. */
  async beatUploads(now = this.clock.now()): Promise<void> {
    await Promise.all([this.files.beatUploads([...this.receiving], now), this.blobs.keepDraftsAlive(now)]);
  }

  /**
   * Fails the files no upload can complete any more (window closed with no upload, or an upload
   * whose process died), removes any content they left, and removes the partial content of writes
   * that died with their process. Safe to run in every process at once. Returns how many files it
   * failed.
   */
  async sweepExpired(now = this.clock.now()): Promise<number> {
    const aliveSince = new Date(now.getTime() - SWEEPS_BEFORE_DEAD * this.config.sweepIntervalSeconds * 1000);
    const limits = {
      heartbeatSince: aliveSince,
      uploadStartedSince: new Date(now.getTime() - UPLOAD_MAX_DURATION_MS),
    };
    let total = 0;
    for (;;) {
      const failed = await this.files.failStalled(now, limits, SWEEP_BATCH);
      for (const file of failed) await this.discardContent(file);
      total += failed.length;
      if (failed.length < SWEEP_BATCH) break;
    }
    const drafts = await this.blobs.removeAbandonedDrafts(aliveSince);
    if (drafts > 0) {
      this.log.info(
        UploadLivenessService.name,
        { drafts },
        'Removed partial uploads left by a stopped process',
      );
    }
    return total;
  }

  /** Best effort: a leftover blob costs space, never correctness (nothing points to it any more). */
  async discardContent(file: FileRecord): Promise<void> {
    try {
      await this.blobs.delete(blobKey(file));
    } catch (error) {
      this.log.warn(
        UploadLivenessService.name,
        { err: error, file: file.sId },
        'Could not delete the content of a file',
      );
    }
  }
}
