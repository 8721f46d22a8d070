import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import {
  FeedbackCounts,
  FeedbackCountsReadModel,
} from 'src/modules/feedback/application/ports/feedback-counts.read-model';

/** Feedback on the agents of the caller's workspace, counted per agent: a read model over the feedback. */
@Injectable()
export class FeedbackCountsService {
  constructor(private readonly counts: FeedbackCountsReadModel) {}

  /** Per agent sId, the feedback given (or last changed) since `since`; agents without any are left out. */
  countsOf(caller: Caller, agentSIds: string[], since: Date): Promise<Map<string, FeedbackCounts>> {
    return this.counts.countsOf(caller.workspaceId, [...new Set(agentSIds)], since);
  }
}
