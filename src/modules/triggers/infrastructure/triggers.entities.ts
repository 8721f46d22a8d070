import type { FiringStatus } from 'src/modules/triggers/application/ports/trigger.repository';
import type {
  WebhookProvider,
  WebhookRequestTriggerStatus,
  WebhookSignatureAlgorithm,
} from 'src/modules/triggers/domain/webhook-source';
import type {
  ScheduleConfig,
  TriggerKind,
  TriggerOrigin,
  TriggerStatus,
  WebhookConfig,
} from 'src/modules/triggers/domain/trigger';
// Foreign keys to other contexts' tables need their entities; nothing else of theirs is used here.
import { ConversationEntity } from 'src/modules/conversations/infrastructure/conversations.entities';
import {
  SpaceEntity,
  UserEntity,
  WorkspaceEntity,
} from 'src/modules/identity/infrastructure/identity.entities';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';

const timestamptz = { type: 'timestamptz' } as const;

// Constraint names are given: the migration is written by hand (see its header).
/** A sender of webhooks and the secret it signs with. */
@Entity('webhook_sources')
@Unique('UQ_webhook_sources_name', ['workspaceId', 'name'])
export class WebhookSourceEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_webhook_sources' })
  id!: number;

  @Index('IDX_webhook_sources_s_id', { unique: true })
  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_webhook_sources_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'varchar', length: 16, nullable: true })
  provider!: WebhookProvider | null;

  @Column({ type: 'varchar', length: 256 })
  secret!: string;

  @Column({ name: 'signature_algorithm', type: 'varchar', length: 16 })
  signatureAlgorithm!: WebhookSignatureAlgorithm;

  @Column({ name: 'signature_header', type: 'varchar', length: 128 })
  signatureHeader!: string;

  @Column({ name: 'timestamp_header', type: 'varchar', length: 128, nullable: true })
  timestampHeader!: string | null;

  @Column({ name: 'timestamp_tolerance_seconds', type: 'int' })
  timestampToleranceSeconds!: number;

  @Column({ name: 'event_header', type: 'varchar', length: 128, nullable: true })
  eventHeader!: string | null;

  @Column({ name: 'delivery_header', type: 'varchar', length: 128, nullable: true })
  deliveryHeader!: string | null;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...timestamptz, default: () => 'now()' })
  updatedAt!: Date;
}

/** A source shared to a space, once per space. */
@Entity('webhook_source_views')
@Unique('UQ_webhook_source_views_space', ['webhookSourceId', 'spaceId'])
export class WebhookSourceViewEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_webhook_source_views' })
  id!: number;

  @Index('IDX_webhook_source_views_s_id', { unique: true })
  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_webhook_source_views_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'webhook_source_id', type: 'int' })
  webhookSourceId!: number;

  @ManyToOne(() => WebhookSourceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_source_id', foreignKeyConstraintName: 'FK_webhook_source_views_source' })
  webhookSource?: WebhookSourceEntity;

  @Index('IDX_webhook_source_views_space')
  @Column({ name: 'space_id', type: 'int' })
  spaceId!: number;

  @ManyToOne(() => SpaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id', foreignKeyConstraintName: 'FK_webhook_source_views_space' })
  space?: SpaceEntity;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

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

  @Index('IDX_triggers_webhook_source_view')
  @Column({ name: 'webhook_source_view_id', type: 'int', nullable: true })
  webhookSourceViewId!: number | null;

  // A view with triggers is not deleted (409): the key only guards against a dangling id.
  @ManyToOne(() => WebhookSourceViewEntity, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'webhook_source_view_id', foreignKeyConstraintName: 'FK_triggers_webhook_source_view' })
  webhookSourceView?: WebhookSourceViewEntity;

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

/**
 * A signed delivery, kept until processed with its payload (the agent reads it after the answer).
 * Unique per source and sender's delivery id, and per source and signature (the delivery id is not
 * signed, the signature covers the bytes): a replay runs into one of them and is not processed again.
 */
@Entity('webhook_requests')
@Unique('UQ_webhook_requests_delivery', ['webhookSourceId', 'deliveryId'])
@Unique('UQ_webhook_requests_signature', ['webhookSourceId', 'signature'])
@Index('IDX_webhook_requests_pending', ['id'], { where: "status = 'received'" })
export class WebhookRequestEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_webhook_requests' })
  id!: number;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_webhook_requests_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'webhook_source_id', type: 'int' })
  webhookSourceId!: number;

  @ManyToOne(() => WebhookSourceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_source_id', foreignKeyConstraintName: 'FK_webhook_requests_source' })
  webhookSource?: WebhookSourceEntity;

  @Column({ name: 'delivery_id', type: 'varchar', length: 255, nullable: true })
  deliveryId!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  event!: string | null;

  /** The verified HMAC of the signed bytes; null for deliveries stored before it was kept. */
  @Column({ type: 'bytea', nullable: true })
  signature!: Buffer | null;

  /** `received`, then `processed` (or `failed`); the payload is dropped once processed. */
  @Column({ type: 'varchar', length: 16 })
  status!: 'received' | 'processed' | 'failed';

  @Column({ type: 'text', nullable: true })
  payload!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

/** What a delivery did for one trigger of its source (Dust's `webhook_request_triggers`). */
@Entity('webhook_request_triggers')
@Unique('UQ_webhook_request_triggers', ['webhookRequestId', 'triggerId'])
@Index('IDX_webhook_request_triggers_trigger', ['triggerId', 'createdAt'])
export class WebhookRequestTriggerEntity {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_webhook_request_triggers' })
  id!: number;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'FK_webhook_request_triggers_workspace' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'webhook_request_id', type: 'int' })
  webhookRequestId!: number;

  @ManyToOne(() => WebhookRequestEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_request_id', foreignKeyConstraintName: 'FK_webhook_request_triggers_request' })
  webhookRequest?: WebhookRequestEntity;

  @Column({ name: 'trigger_id', type: 'int' })
  triggerId!: number;

  @ManyToOne(() => TriggerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'trigger_id', foreignKeyConstraintName: 'FK_webhook_request_triggers_trigger' })
  trigger?: TriggerEntity;

  @Column({ type: 'varchar', length: 32 })
  status!: WebhookRequestTriggerStatus;

  @Index('IDX_webhook_request_triggers_conversation')
  @Column({ name: 'conversation_id', type: 'int', nullable: true })
  conversationId!: number | null;

  @ManyToOne(() => ConversationEntity, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'conversation_id',
    foreignKeyConstraintName: 'FK_webhook_request_triggers_conversation',
  })
  conversation?: ConversationEntity;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

export const TRIGGERS_ENTITIES = [
  TriggerEntity,
  TriggerFiringEntity,
  WebhookSourceEntity,
  WebhookSourceViewEntity,
  WebhookRequestEntity,
  WebhookRequestTriggerEntity,
];
