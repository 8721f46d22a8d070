import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { AgentUsageService } from 'src/modules/conversations/conversations.api';
import { FeedbackCountsService } from 'src/modules/feedback/feedback.api';
import { AgentStatistics, AgentUsage, FeedbackCounts } from 'src/modules/agents/agents.api';

/** The agent statistics from the contexts that own their tables: usage from conversations, counts from feedback. */
@Injectable()
export class AgentStatisticsAdapter extends AgentStatistics {
  constructor(
    private readonly agentUsage: AgentUsageService,
    private readonly feedback: FeedbackCountsService,
  ) {
    super();
  }

  usage(caller: Caller, sIds: string[], since: Date): Promise<Map<string, AgentUsage>> {
    return this.agentUsage.usageOf(caller, sIds, since);
  }

  feedbackCounts(caller: Caller, sIds: string[], since: Date): Promise<Map<string, FeedbackCounts>> {
    return this.feedback.countsOf(caller, sIds, since);
  }
}
