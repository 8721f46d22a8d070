import type { AgentScope, AgentStatus, ResolvedAction } from 'src/modules/agents/domain/agent-configuration';
import type { AgentModel } from 'src/kernel/agent-model';
import type { RemoteTool, RequireApproval, TagKind } from 'src/modules/agents/domain/catalogue';
// Foreign keys to identity's tables need their entities; nothing else of identity is used here.
import {
  SpaceEntity,
  UserEntity,
  WorkspaceEntity,
} from 'src/modules/identity/infrastructure/identity.entities';
import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

const timestamptz = { type: 'timestamptz' } as const;

@Entity('agent_configurations')
@Index(['workspaceId', 'sId', 'version'], { unique: true })
@Index(['workspaceId', 'status', 'scope'])
@Index('IDX_agent_configurations_live_name', { synchronize: false })
export class AgentConfigurationEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @Column({ type: 'int' })
  version!: number;

  @Column({ name: 'version_created_at', ...timestamptz, default: () => 'now()' })
  versionCreatedAt!: Date;

  @Column({ name: 'version_author_id', type: 'int', nullable: true })
  versionAuthorId!: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'version_author_id' })
  versionAuthor?: UserEntity;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'text', nullable: true })
  instructions!: string | null;

  @Column({ name: 'picture_url', type: 'varchar', length: 2048 })
  pictureUrl!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: AgentStatus;

  @Column({ type: 'varchar', length: 16 })
  scope!: AgentScope;

  @Column({ type: 'jsonb' })
  model!: AgentModel;

  @Column({ type: 'jsonb' })
  actions!: ResolvedAction[];

  @Column({ name: 'max_steps_per_run', type: 'int' })
  maxStepsPerRun!: number;

  @Column({ name: 'visualization_enabled', type: 'boolean', default: false })
  visualizationEnabled!: boolean;

  @Column({ name: 'template_id', type: 'varchar', length: 64, nullable: true })
  templateId!: string | null;

  @Column({ name: 'tag_ids', type: 'int', array: true })
  tagIds!: number[];

  @Column({ name: 'skill_ids', type: 'int', array: true })
  skillIds!: number[];
}

@Entity('agent_editors')
export class AgentEditorEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @PrimaryColumn({ name: 'agent_s_id', type: 'varchar', length: 32 })
  agentSId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'int' })
  userId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;
}

@Entity('agent_favorites')
export class AgentFavoriteEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @PrimaryColumn({ name: 'user_id', type: 'int' })
  userId!: number;

  @PrimaryColumn({ name: 'agent_s_id', type: 'varchar', length: 32 })
  agentSId!: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;
}

@Entity('tags')
@Index('IDX_tags_workspace_name', { synchronize: false })
export class TagEntity {
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

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: TagKind;
}

@Entity('skills')
@Index('IDX_skills_workspace_name', { synchronize: false })
export class SkillEntity {
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

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

@Entity('remote_mcp_servers')
@Index(['workspaceId'])
export class RemoteMcpServerEntity {
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

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ name: 'shared_secret', type: 'text', nullable: true })
  sharedSecret!: string | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  tools!: RemoteTool[];

  @Column({ name: 'last_synced_at', ...timestamptz, nullable: true })
  lastSyncedAt!: Date | null;

  @Column({ name: 'last_sync_error', type: 'text', nullable: true })
  lastSyncError!: string | null;

  @Column({ name: 'server_version', type: 'varchar', length: 64, nullable: true })
  serverVersion!: string | null;

  @OneToMany(() => McpServerViewEntity, (view) => view.mcpServer)
  views?: McpServerViewEntity[];

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

@Entity('mcp_server_views')
@Index(['mcpServerId', 'spaceId'], { unique: true })
@Index(['workspaceId'])
export class McpServerViewEntity {
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

  @Column({ name: 'mcp_server_id', type: 'int' })
  mcpServerId!: number;

  @ManyToOne(() => RemoteMcpServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'mcp_server_id' })
  mcpServer?: RemoteMcpServerEntity;

  @Column({ name: 'space_id', type: 'int' })
  spaceId!: number;

  @ManyToOne(() => SpaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id' })
  space?: SpaceEntity;

  /** `"never"`, `"always"` or a list of tool names. */
  @Column({ name: 'require_approval', type: 'jsonb', default: () => `'"never"'` })
  requireApproval!: RequireApproval;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', ...timestamptz, default: () => 'now()' })
  updatedAt!: Date;
}

export const AGENTS_ENTITIES = [
  AgentConfigurationEntity,
  AgentEditorEntity,
  AgentFavoriteEntity,
  TagEntity,
  SkillEntity,
  RemoteMcpServerEntity,
  McpServerViewEntity,
];
