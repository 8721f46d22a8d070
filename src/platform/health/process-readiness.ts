import { Injectable } from '@nestjs/common';

/**
 * Whether the process still wants new work. A stop makes it unready at once, while it still
 * serves for a grace period: a load balancer polling `/readyz` sends it no new requests by then.
 */
@Injectable()
export class ProcessReadiness {
  private stoppingNow = false;

  get stopping(): boolean {
    return this.stoppingNow;
  }

  stop(): void {
    this.stoppingNow = true;
  }
}
