import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { FeedbackRepository } from 'src/modules/feedback/application/ports/feedback.repository';
import type { Feedback, FeedbackEntry } from 'src/modules/feedback/domain/feedback';
import { AgentMessageFeedbackEntity } from 'src/modules/feedback/infrastructure/feedback.entities';

@Injectable()
export class TypeormFeedbackRepository extends FeedbackRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get feedbacks() {
    return this.db.repository(AgentMessageFeedbackEntity);
  }

  async upsert(feedback: Feedback): Promise<void> {
    // One statement: two concurrent first feedbacks of a member on a message end as one row.
    await this.db.manager().query(
      `INSERT INTO agent_message_feedbacks
         (workspace_id, message_id, user_id, thumb_direction, content, is_conversation_shared)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (message_id, user_id) DO UPDATE SET
         thumb_direction = EXCLUDED.thumb_direction,
         content = EXCLUDED.content,
         is_conversation_shared = EXCLUDED.is_conversation_shared,
         updated_at = now()
       WHERE agent_message_feedbacks.workspace_id = EXCLUDED.workspace_id`,
      [
        feedback.workspaceId,
        feedback.messageId,
        feedback.userId,
        feedback.thumbDirection,
        feedback.content,
        feedback.isConversationShared,
      ],
    );
  }

  async remove(workspaceId: number, messageId: number, userId: number): Promise<void> {
    await this.feedbacks.delete({ workspaceId, messageId, userId });
  }

  async listForConversation(workspaceId: number, conversationId: number): Promise<FeedbackEntry[]> {
    const rows = await this.feedbacks
      .createQueryBuilder('f')
      .innerJoinAndSelect('f.message', 'm')
      .where('f.workspace_id = :workspaceId AND m.workspace_id = :workspaceId', { workspaceId })
      .andWhere('m.conversation_id = :conversationId', { conversationId })
      .orderBy('f.created_at', 'ASC')
      .addOrderBy('f.id', 'ASC')
      .getMany();
    return rows.map((row) => ({
      id: row.id,
      workspaceId: row.workspaceId,
      messageId: row.messageId,
      userId: row.userId,
      thumbDirection: row.thumbDirection,
      content: row.content,
      isConversationShared: row.isConversationShared,
      createdAt: row.createdAt,
      messageSId: row.message!.sId,
      agentSId: row.message!.agentSId ?? '',
      agentVersion: row.message!.agentVersion ?? 0,
    }));
  }
}
