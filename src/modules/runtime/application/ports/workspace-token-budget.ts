/** Port: the monthly token budget that applies to a workspace (usage owns it and answers). */
export abstract class WorkspaceTokenBudget {
  /** Tokens (prompt and completion) its runs may use in a calendar month, UTC; null: no budget. */
  abstract monthlyTokens(workspaceId: number): Promise<number | null>;
}
