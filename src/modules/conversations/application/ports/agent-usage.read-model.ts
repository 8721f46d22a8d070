export interface AgentUsage {
  messageCount: number;
  conversationCount: number;
  userCount: number;
}

/** Port: how much agents are used, read from their answers. Every query takes the workspace id. */
export abstract class AgentUsageReadModel {
  /**
   * Agent messages of these agents created since `since`: how many, in how many conversations, and
   * for how many users (the authors of the messages they answer). Agents without any are left out.
   */
  abstract usageOf(workspaceId: number, agentSIds: string[], since: Date): Promise<Map<string, AgentUsage>>;
}
