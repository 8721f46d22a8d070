import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  FeedbackCounts,
  FeedbackCountsReadModel,
} from 'src/modules/feedback/application/ports/feedback-counts.read-model';

@Injectable()
export class TypeormFeedbackCountsReadModel extends FeedbackCountsReadModel {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  async countsOf(
    workspaceId: number,
    agentSIds: string[],
    since: Date,
  ): Promise<Map<string, FeedbackCounts>> {
    const result = new Map<string, FeedbackCounts>();
    if (agentSIds.length === 0) return result;
    // The agent is the message's, read through the join as everywhere in this context.
    const rows = await this.db.hotRead<{ s_id: string; up: number; down: number }>(
      'feedback_counts',
      `SELECT m.agent_s_id AS s_id,
              count(*) FILTER (WHERE f.thumb_direction = 'up')::int AS up,
              count(*) FILTER (WHERE f.thumb_direction = 'down')::int AS down
       FROM agent_message_feedbacks f JOIN messages m ON m.id = f.message_id
       WHERE f.workspace_id = $1 AND m.workspace_id = $1 AND m.agent_s_id = ANY($2) AND f.updated_at >= $3
       GROUP BY m.agent_s_id`,
      [workspaceId, agentSIds, since],
    );
    for (const row of rows) result.set(row.s_id, { up: row.up, down: row.down });
    return result;
  }
}
