import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ClientMcpServersService } from 'src/modules/runtime/application/client-mcp-servers.service';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';

/**
 * Drops client-side MCP servers whose client stopped beating, in every process on a timer (the
 * sweep is safe to run concurrently: each expired server is dropped once). A quarter of the
 * timeout between sweeps: a server outlives its last heartbeat by at most a quarter more.
 */
@Injectable()
export class ClientMcpSweepWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ClientMcpSweepWorker.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly servers: ClientMcpServersService,
    private readonly config: RuntimeConfig,
  ) {}

  onApplicationBootstrap(): void {
    const everyMs = Math.max(250, Math.min(30_000, this.config.clientServers.timeoutMs / 4));
    this.timer = setInterval(() => this.sweep(), everyMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private sweep(): void {
    if (this.running) return;
    this.running = this.servers
      .sweep()
      .then(
        (dropped) => {
          if (dropped.length > 0)
            this.logger.log({ dropped: dropped.length }, 'Dropped client-side MCP servers without heartbeat');
        },
        (error: unknown) => this.logger.warn({ err: error }, 'The sweep of client-side MCP servers failed'),
      )
      .finally(() => {
        this.running = null;
      });
  }
}
