import type { UnitOfWork } from 'src/platform/database/unit-of-work';
import { AccessChange, AccessChanges } from 'src/platform/events/access-changes';

/** Access changes heard in this process only: announced once the transaction commits, and kept. */
export class RecordingAccessChanges extends AccessChanges {
  readonly announced: AccessChange[] = [];
  private readonly listeners = new Set<(change: AccessChange) => void>();

  constructor(private readonly unitOfWork?: UnitOfWork) {
    super();
  }

  async announce(change: AccessChange): Promise<void> {
    const deliver = () => {
      this.announced.push(change);
      for (const listener of this.listeners) listener(change);
    };
    if (this.unitOfWork) this.unitOfWork.afterCommit(deliver);
    else deliver();
  }

  subscribe(listener: (change: AccessChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
