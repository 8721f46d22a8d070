import type { WakeUpStatus } from 'src/modules/wakeups/domain/wakeup';
// Foreign keys to other contexts' tables need their entities; nothing else of theirs is used here.
import { ConversationEntity } from 'src/modules/conversations/infrastructure/conversations.entities';
import { UserEntity, WorkspaceEntity } from 'src/modules/identity/infrastructure/identity.entities';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

const timestamptz = { type: 'timestamptz' } as const;

@Entity('wakeups')
@Index(['workspaceId', 'conversationId'])
@Index('IDX_wakeups_due', { synchronize: false })
@Index('IDX_wakeups_one_scheduled', { synchronize: false })
export class WakeUpEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index({ unique: true })
  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'conversation_id', type: 'int' })
  conversationId!: number;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation?: ConversationEntity;

  @Column({ name: 'owner_id', type: 'int' })
  ownerId!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id' })
  owner?: UserEntity;

  @Column({ name: 'agent_s_id', type: 'varchar', length: 32 })
  agentSId!: string;

  @Column({ name: 'schedule_type', type: 'varchar', length: 16 })
  scheduleType!: 'one_shot' | 'cron';

  @Column({ name: 'fire_at', ...timestamptz, nullable: true })
  fireAt!: Date | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  cron!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  timezone!: string | null;

  @Column({ type: 'text' })
  reason!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: WakeUpStatus;

  @Column({ name: 'fire_count', type: 'int', default: 0 })
  fireCount!: number;

  @Column({ name: 'max_fires', type: 'int' })
  maxFires!: number;

  @Column({ name: 'next_fire_at', ...timestamptz, nullable: true })
  nextFireAt!: Date | null;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...timestamptz, default: () => 'now()' })
  updatedAt!: Date;
}
