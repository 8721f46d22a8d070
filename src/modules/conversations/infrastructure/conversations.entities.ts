import type { Conversation } from 'src/modules/conversations/domain/conversation';
import type { AgentMessageStatus, Mention, MessageContext } from 'src/modules/conversations/domain/message';
import type { FragmentAuthor, FragmentNode } from 'src/modules/conversations/domain/content-fragment';
// Foreign keys to identity's tables need their entities; nothing else of identity is used here.
import {
  SpaceEntity,
  UserEntity,
  WorkspaceEntity,
} from 'src/modules/identity/infrastructure/identity.entities';
import {
  Column,
  DeleteDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';

const timestamptz = { type: 'timestamptz' } as const;

@Entity('conversations')
@Index(['workspaceId', 'sId'], { unique: true })
@Index(['parentConversationId'])
export class ConversationEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'varchar', length: 200, nullable: true })
  title!: string | null;

  @Column({ type: 'int', default: 0 })
  depth!: number;

  @Column({ name: 'space_id', type: 'int', nullable: true })
  spaceId!: number | null;

  @ManyToOne(() => SpaceEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'space_id' })
  space?: SpaceEntity;

  @Column({ name: 'trigger_id', type: 'varchar', length: 64, nullable: true })
  triggerId!: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata!: Record<string, unknown>;

  @Column({ name: 'requested_space_ids', type: 'text', array: true, default: () => "'{}'" })
  requestedSpaceIds!: string[];

  @Column({ name: 'has_error', type: 'boolean', default: false })
  hasError!: boolean;

  /** The next free message rank; incremented under the row lock. */
  @Column({ name: 'next_rank', type: 'int', default: 0 })
  nextRank!: number;

  @Column({ name: 'parent_conversation_id', type: 'int', nullable: true })
  parentConversationId!: number | null;

  @ManyToOne(() => ConversationEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'parent_conversation_id' })
  parentConversation?: ConversationEntity;

  @Column({ name: 'source_message_id', type: 'int', nullable: true })
  sourceMessageId!: number | null;

  @Column({ name: 'branched_at', ...timestamptz, nullable: true })
  branchedAt!: Date | null;

  @Column({ name: 'forked_by_user_id', type: 'int', nullable: true })
  forkedByUserId!: number | null;

  @Column({ name: 'file_copy_status', type: 'varchar', length: 16, nullable: true })
  fileCopyStatus!: 'pending' | 'completed' | null;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...timestamptz, default: () => 'now()' })
  updatedAt!: Date;

  /** Set when the conversation is deleted: TypeORM's reads then leave the row out, raw SQL must too. */
  @DeleteDateColumn({ name: 'deleted_at', ...timestamptz, nullable: true })
  deletedAt!: Date | null;
}

/** A conversation row as the domain sees it: a new column gets its line here, beside its entity. */
export const toConversation = (e: ConversationEntity): Conversation => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  title: e.title,
  depth: e.depth,
  spaceId: e.spaceId,
  triggerId: e.triggerId,
  metadata: e.metadata,
  requestedSpaceIds: e.requestedSpaceIds,
  hasError: e.hasError,
  forkedFrom:
    e.parentConversationId !== null && e.sourceMessageId !== null && e.branchedAt && e.forkedByUserId !== null
      ? {
          parentConversationId: e.parentConversationId,
          sourceMessageId: e.sourceMessageId,
          branchedAt: e.branchedAt,
          forkedByUserId: e.forkedByUserId,
          fileCopyStatus: e.fileCopyStatus ?? 'completed',
        }
      : null,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

@Entity('conversation_participants')
@Index(['workspaceId', 'userId', 'conversationId'])
export class ParticipantEntity {
  @PrimaryColumn({ name: 'conversation_id', type: 'int' })
  conversationId!: number;

  @PrimaryColumn({ name: 'user_id', type: 'int' })
  userId!: number;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation?: ConversationEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ name: 'last_read_at', ...timestamptz, nullable: true })
  lastReadAt!: Date | null;

  @Column({ name: 'action_required', type: 'boolean', default: false })
  actionRequired!: boolean;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

@Entity('messages')
@Index(['conversationId', 'rank', 'version'], { unique: true })
@Index(['workspaceId', 'sId'], { unique: true })
@Index(['workspaceId', 'agentSId', 'createdAt'])
export class MessageEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ name: 'conversation_id', type: 'int' })
  conversationId!: number;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation?: ConversationEntity;

  @Column({ type: 'int' })
  rank!: number;

  @Column({ type: 'int' })
  version!: number;

  @Column({ type: 'varchar', length: 16 })
  type!: 'user_message' | 'agent_message';

  @Column({ type: 'text' })
  content!: string;

  /** Author of a user message. */
  @Column({ name: 'user_id', type: 'int', nullable: true })
  userId!: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: 'jsonb', nullable: true })
  mentions!: Mention[] | null;

  @Column({ type: 'jsonb', nullable: true })
  context!: MessageContext | null;

  /** The user message an agent message answers. */
  @Column({ name: 'parent_message_id', type: 'int', nullable: true })
  parentMessageId!: number | null;

  @Column({ name: 'agent_s_id', type: 'varchar', length: 32, nullable: true })
  agentSId!: string | null;

  @Column({ name: 'agent_version', type: 'int', nullable: true })
  agentVersion!: number | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  status!: AgentMessageStatus | null;

  @Column({ type: 'jsonb', nullable: true })
  error!: { code: string; message: string } | null;

  @Column({ name: 'completed_at', ...timestamptz, nullable: true })
  completedAt!: Date | null;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

@Entity('message_reactions')
export class ReactionEntity {
  @PrimaryColumn({ name: 'message_id', type: 'int' })
  messageId!: number;

  @PrimaryColumn({ name: 'user_id', type: 'int' })
  userId!: number;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  emoji!: string;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: MessageEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

/** Files and inline text put in conversations: slots of their own, ranked with the messages. */
@Entity('content_fragments')
@Index('IDX_content_fragments_workspace_s_id', ['workspaceId', 'sId'], { unique: true })
@Index('IDX_content_fragments_conversation_rank', ['conversationId', 'rank'], { unique: true })
export class ContentFragmentEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ name: 'conversation_id', type: 'int' })
  conversationId!: number;

  @ManyToOne(() => ConversationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'conversation_id' })
  conversation?: ConversationEntity;

  @Column({ type: 'int' })
  rank!: number;

  @Column({ type: 'int', default: 0 })
  version!: number;

  @Column({ type: 'varchar', length: 512 })
  title!: string;

  @Column({ name: 'content_type', type: 'varchar', length: 255 })
  contentType!: string;

  /** The file shown (which may be deleted later: the text stays); null for inline text. */
  @Column({ name: 'file_s_id', type: 'varchar', length: 32, nullable: true })
  fileSId!: string | null;

  /** Read once when attached; only runs load it. */
  @Column({ type: 'text', select: false })
  text!: string;

  @Column({ name: 'text_bytes', type: 'int' })
  textBytes!: number;

  @Column({ name: 'source_url', type: 'varchar', length: 2048, nullable: true })
  sourceUrl!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  author!: FragmentAuthor | null;

  @Column({ type: 'jsonb', nullable: true })
  node!: FragmentNode | null;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

export const CONVERSATIONS_ENTITIES = [
  ConversationEntity,
  ParticipantEntity,
  MessageEntity,
  ReactionEntity,
  ContentFragmentEntity,
];
