import { inTransactionEvent } from 'src/platform/events/in-process-events';

/** An agent was archived, in the current transaction: what starts it by itself (triggers) stops. */
export interface AgentArchived {
  workspaceId: number;
  agentSId: string;
}
export const AgentArchived = inTransactionEvent<AgentArchived>('agent.archived');
