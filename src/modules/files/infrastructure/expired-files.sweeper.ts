import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from 'src/platform/config/app-config';
import { FilesService } from 'src/modules/files/application/files.service';

/**
 * Runs the sweep of never-uploaded files on a timer in every process (the sweep itself is safe
 * to run concurrently). Stopped before shutdown closes the database, waiting for a sweep under way.
 */
@Injectable()
export class ExpiredFilesSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ExpiredFilesSweeper.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly files: FilesService,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.sweep(), this.config.files.sweepIntervalSeconds * 1000);
    // Never what keeps a process alive.
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private sweep(): void {
    if (this.running) return;
    this.running = this.files
      .sweepExpired()
      .then(
        (failed) => {
          if (failed > 0) this.logger.log({ failed }, 'Failed files whose upload window closed');
        },
        (error: unknown) => this.logger.warn({ err: error }, 'The sweep of expired files failed'),
      )
      .finally(() => {
        this.running = null;
      });
  }
}
