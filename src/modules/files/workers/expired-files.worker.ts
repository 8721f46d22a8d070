import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { UploadLivenessService } from 'src/modules/files/application/upload-liveness.service';
import { FilesConfig } from 'src/modules/files/files.config';

/**
 * Runs the sweep of files no upload can complete on a timer in every process, and once at start
 * (the sweep itself is safe to run concurrently), and the heartbeat of this process's uploads.
 * Stopped before shutdown closes the database, waiting for a sweep under way.
 */
@Injectable()
export class ExpiredFilesWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ExpiredFilesWorker.name);
  private timers: NodeJS.Timeout[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly liveness: UploadLivenessService,
    private readonly config: FilesConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timers = [
      setInterval(() => this.sweep(), this.config.sweepIntervalSeconds * 1000),
      setInterval(() => this.beat(), this.liveness.uploadHeartbeatMs),
    ];
    // Never what keeps a process alive.
    for (const timer of this.timers) timer.unref();
    // Uploads cut by a previous stop of this or another process are failed without waiting.
    this.sweep();
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.running;
  }

  private beat(): void {
    this.liveness
      .beatUploads()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'The heartbeat of uploads failed'));
  }

  private sweep(): void {
    if (this.running) return;
    this.running = this.liveness
      .sweepExpired()
      .then(
        (failed) => {
          if (failed > 0) this.logger.log({ failed }, 'Failed files that no upload can complete');
        },
        (error: unknown) => this.logger.warn({ err: error }, 'The sweep of expired files failed'),
      )
      .finally(() => {
        this.running = null;
      });
  }
}
