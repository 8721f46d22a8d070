export interface FeedbackCounts {
  up: number;
  down: number;
}

/** Port: feedback counted per agent. Every query takes the workspace id. */
export abstract class FeedbackCountsReadModel {
  /** Feedback on these agents' messages given (or last changed) since `since`, by direction; agents without any are left out. */
  abstract countsOf(
    workspaceId: number,
    agentSIds: string[],
    since: Date,
  ): Promise<Map<string, FeedbackCounts>>;
}
