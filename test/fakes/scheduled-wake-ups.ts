import { ScheduledWakeUps } from 'src/modules/conversations/application/ports/scheduled-wake-ups';

/** Who owns the wake-up scheduled in each conversation, as a test sets it. */
export class InMemoryScheduledWakeUps extends ScheduledWakeUps {
  private readonly owners = new Map<string, number>();

  schedule(workspaceId: number, conversationId: number, ownerId: number): void {
    this.owners.set(`${workspaceId}:${conversationId}`, ownerId);
  }

  async ownerOfScheduled(workspaceId: number, conversationId: number): Promise<number | null> {
    return this.owners.get(`${workspaceId}:${conversationId}`) ?? null;
  }
}
