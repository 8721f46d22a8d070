import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  AgentUsage,
  AgentUsageReadModel,
} from 'src/modules/conversations/application/ports/agent-usage.read-model';

@Injectable()
export class TypeormAgentUsageReadModel extends AgentUsageReadModel {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  async usageOf(workspaceId: number, agentSIds: string[], since: Date): Promise<Map<string, AgentUsage>> {
    const result = new Map<string, AgentUsage>();
    if (agentSIds.length === 0) return result;
    const rows = await this.db.hotRead<{
      s_id: string;
      messages: number;
      conversations: number;
      users: number;
    }>(
      'agent_usage',
      `SELECT m.agent_s_id AS s_id, count(*)::int AS messages,
              count(DISTINCT m.conversation_id)::int AS conversations, count(DISTINCT p.user_id)::int AS users
       FROM messages m JOIN messages p ON p.workspace_id = m.workspace_id AND p.id = m.parent_message_id
       WHERE m.workspace_id = $1 AND m.type = 'agent_message' AND m.agent_s_id = ANY($2) AND m.created_at >= $3
       GROUP BY m.agent_s_id`,
      [workspaceId, agentSIds, since],
    );
    for (const row of rows) {
      result.set(row.s_id, {
        messageCount: row.messages,
        conversationCount: row.conversations,
        userCount: row.users,
      });
    }
    return result;
  }
}
