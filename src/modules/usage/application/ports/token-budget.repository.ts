/** Port: the monthly token budget an admin set on a workspace. */
export abstract class TokenBudgetRepository {
  /** The workspace's own budget, null when none is set. */
  abstract find(workspaceId: number): Promise<number | null>;
  /** Sets the workspace's budget, or removes it with null. */
  abstract save(workspaceId: number, monthlyTokens: number | null, userId: number): Promise<void>;
}
