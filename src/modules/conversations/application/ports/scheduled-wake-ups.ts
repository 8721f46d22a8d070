/**
 * Port: the wake-up scheduled in a conversation, answered by the wakeups context (which itself
 * depends on conversations, so it answers this rather than being imported; the binding is in
 * src/composition).
 */
export abstract class ScheduledWakeUps {
  /** The member (user row id) whose wake-up is scheduled in the conversation, or null when none is. */
  abstract ownerOfScheduled(workspaceId: number, conversationId: number): Promise<number | null>;
}
