// Foreign keys to other contexts' tables need their entities; nothing else of them is used here.
import { MessageEntity } from 'src/modules/conversations/infrastructure/conversations.entities';
import { UserEntity, WorkspaceEntity } from 'src/modules/identity/infrastructure/identity.entities';
import type { ThumbDirection } from 'src/modules/feedback/domain/feedback';
import { FEEDBACK_CONTENT_MAX } from 'src/modules/feedback/domain/feedback';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

const timestamptz = { type: 'timestamptz' } as const;

/**
 * One row per member and agent message (the unique index is the upsert's conflict target). The
 * agent and its version are the message's, read through the join rather than copied.
 */
@Entity('agent_message_feedbacks')
@Index(['messageId', 'userId'], { unique: true })
// The agent list counts a workspace's recent feedback.
@Index(['workspaceId', 'updatedAt'])
export class AgentMessageFeedbackEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'message_id', type: 'int' })
  messageId!: number;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: MessageEntity;

  @Column({ name: 'user_id', type: 'int' })
  userId!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ name: 'thumb_direction', type: 'varchar', length: 8 })
  thumbDirection!: ThumbDirection;

  @Column({ type: 'varchar', length: FEEDBACK_CONTENT_MAX, default: '' })
  content!: string;

  @Column({ name: 'is_conversation_shared', type: 'boolean', default: false })
  isConversationShared!: boolean;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;

  /** When the member last gave this feedback: the agent list counts feedback by it. */
  @Column({ name: 'updated_at', ...timestamptz, default: () => 'now()' })
  updatedAt!: Date;
}

export const FEEDBACK_ENTITIES = [AgentMessageFeedbackEntity];
