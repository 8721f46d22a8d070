import type { LoggedEvent } from 'src/platform/events/conversation-event';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity('conversation_events')
@Index(['conversationId', 'id'])
export class ConversationEventEntity {
  /** bigint: kept as a string in JavaScript. */
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ name: 'conversation_id', type: 'int' })
  conversationId!: number;

  @Column({ type: 'varchar', length: 40 })
  type!: string;

  @Column({ type: 'jsonb' })
  payload!: LoggedEvent;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}
