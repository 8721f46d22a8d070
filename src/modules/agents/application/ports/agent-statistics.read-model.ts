import { Caller } from 'src/platform/auth/caller';

export interface AgentUsage {
  messageCount: number;
  conversationCount: number;
  userCount: number;
}

export interface FeedbackCounts {
  up: number;
  down: number;
}

/**
 * Port: what the agent list shows of other contexts' data. Conversations own the agents' answers
 * and feedback owns the feedback; both depend on this context, so the composition binds this port
 * to their application services (src/composition) instead of this context importing them.
 */
export abstract class AgentStatistics {
  /** Per agent sId, its answers since `since`; agents without any are left out. */
  abstract usage(caller: Caller, sIds: string[], since: Date): Promise<Map<string, AgentUsage>>;
  /** Per agent sId, the feedback given (or last changed) since `since`; agents without any are left out. */
  abstract feedbackCounts(caller: Caller, sIds: string[], since: Date): Promise<Map<string, FeedbackCounts>>;
}
