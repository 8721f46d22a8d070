import { Injectable } from '@nestjs/common';

/**
 * Work that is late as soon as it waits (firing due wake-ups) runs through `run`; work that may
 * wait (agent answers) holds back while `busy` and resumes on `idle()`, so a burst of the first
 * does not share the process's database connections and CPU with the second.
 */
@Injectable()
export class UrgentWork {
  private active = 0;
  private waiters: (() => void)[] = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      if (this.active === 0) {
        const waiters = this.waiters;
        this.waiters = [];
        for (const resolve of waiters) resolve();
      }
    }
  }

  get busy(): boolean {
    return this.active > 0;
  }

  /** Resolves once no urgent work is under way (at once when none is). */
  idle(): Promise<void> {
    if (this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
