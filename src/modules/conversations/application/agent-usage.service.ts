import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import {
  AgentUsage,
  AgentUsageReadModel,
} from 'src/modules/conversations/application/ports/agent-usage.read-model';

/** How much the agents of the caller's workspace answer: a read model over the agent messages. */
@Injectable()
export class AgentUsageService {
  constructor(private readonly usage: AgentUsageReadModel) {}

  /** Per agent sId, its answers since `since`; agents without any are left out. */
  usageOf(caller: Caller, agentSIds: string[], since: Date): Promise<Map<string, AgentUsage>> {
    return this.usage.usageOf(caller.workspaceId, [...new Set(agentSIds)], since);
  }
}
