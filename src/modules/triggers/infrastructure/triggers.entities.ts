import type { FiringStatus } from 'src/modules/triggers/application/ports/trigger.repository';
import type {
  ScheduleConfig,
  TriggerKind,
  TriggerOrigin,
  TriggerStatus,
  WebhookConfig,
} from 'src/modules/triggers/domain/trigger';
// Foreign keys to other contexts' tables need their entities; nothing else of theirs is used here.
import { ConversationEntity } from 'src/modules/conversations/infrastructure/conversations.entities';
import { UserEntity, WorkspaceEntity } from 'src/modules/identity/infrastructure/identity.entities';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';

const timestamptz = { type: 'timestamptz' } as const;

// Constraint names are given: the migration is written by hand (see its header).
@Entity('triggers')
@Index('IDX_triggers_agent', ['workspaceId', 'agentSId'])
@Index('IDX_triggers_due', ['nextFireAt'])
export class TriggerEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_triggers' })
  id!: number;

  @Index('IDX_triggers_s_id', { unique: true })
  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_triggers_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'agent_s_id', type: 'varchar', length: 32 })
  agentSId!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ name: 'editor_id', type: 'int' })
  editorId!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'editor_id', foreignKeyConstraintName: 'FK_triggers_editor' })
  editor?: UserEntity;

  @Column({ name: 'custom_prompt', type: 'text', nullable: true })
  customPrompt!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: TriggerStatus;

  @Column({ type: 'varchar', length: 16 })
  origin!: TriggerOrigin;

  /** The conversation whose agent run created it (origin `agent`): the per-conversation limit counts these. */
  @Index('IDX_triggers_source_conversation')
  @Column({ name: 'source_conversation_id', type: 'int', nullable: true })
  sourceConversationId!: number | null;

  @ManyToOne(() => ConversationEntity, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'source_conversation_id',
    foreignKeyConstraintName: 'FK_triggers_source_conversation',
  })
  sourceConversation?: ConversationEntity;

  @Column({ type: 'varchar', length: 16 })
  kind!: TriggerKind;

  @Column({ type: 'jsonb' })
  configuration!: ScheduleConfig | WebhookConfig;

  @Column({ name: 'webhook_source_view_id', type: 'int', nullable: true })
  webhookSourceViewId!: number | null;

  @Column({ name: 'execution_per_day_limit_override', type: 'int', nullable: true })
  executionPerDayLimitOverride!: number | null;

  @Column({ name: 'next_fire_at', ...timestamptz, nullable: true })
  nextFireAt!: Date | null;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...timestamptz, default: () => 'now()' })
  updatedAt!: Date;
}

/** One firing per trigger and due time: the unique key a second firing of that time runs into. */
@Entity('trigger_firings')
@Unique('UQ_trigger_firings_due', ['triggerId', 'dueAt'])
export class TriggerFiringEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_trigger_firings' })
  id!: number;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_trigger_firings_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'trigger_id', type: 'int' })
  triggerId!: number;

  @ManyToOne(() => TriggerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'trigger_id', foreignKeyConstraintName: 'FK_trigger_firings_trigger' })
  trigger?: TriggerEntity;

  @Column({ name: 'due_at', ...timestamptz })
  dueAt!: Date;

  @Column({ type: 'varchar', length: 16 })
  status!: FiringStatus;

  @Index('IDX_trigger_firings_conversation')
  @Column({ name: 'conversation_id', type: 'int', nullable: true })
  conversationId!: number | null;

  @ManyToOne(() => ConversationEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'conversation_id', foreignKeyConstraintName: 'FK_trigger_firings_conversation' })
  conversation?: ConversationEntity;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

export const TRIGGERS_ENTITIES = [TriggerEntity, TriggerFiringEntity];
