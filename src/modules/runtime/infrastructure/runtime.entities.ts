import type { RunStatus } from 'src/modules/runtime/domain/agent-run';
import type { ActionOutput, ActionStatus } from 'src/modules/runtime/domain/run-action';
// Foreign keys to the workspace and to the agent message a run generates need their entities.
import {
  ConversationEntity,
  MessageEntity,
} from 'src/modules/conversations/infrastructure/conversations.entities';
import { UserEntity, WorkspaceEntity } from 'src/modules/identity/infrastructure/identity.entities';
import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

const timestamptz = { type: 'timestamptz' } as const;

/**
 * The run of an agent message: its status, the process that holds it while it runs, and what it
 * cost (the agent and model it ran, the tokens its model calls reported).
 */
@Entity('agent_runs')
@Index('IDX_agent_runs_message', ['messageId'], { unique: true })
@Index('IDX_agent_runs_conversation', ['conversationId'])
@Index('IDX_agent_runs_running', ['runnerHeartbeatAt'], { where: "status = 'running'" })
@Index('IDX_agent_runs_workspace_created', ['workspaceId', 'createdAt'])
@Index('IDX_agent_runs_holding', ['id'], { where: 'reserved_tokens > 0' })
export class AgentRunEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'conversation_id', type: 'int' })
  conversationId!: number;

  @Column({ name: 'message_id', type: 'int' })
  messageId!: number;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: MessageEntity;

  /** The member the run acts for; null for runs recorded before it was kept. */
  @Column({ name: 'user_id', type: 'int', nullable: true })
  userId!: number | null;

  @Column({ type: 'varchar', length: 16 })
  status!: RunStatus;

  // What the run ran, as it started; null for runs recorded before usage was kept.
  @Column({ name: 'agent_s_id', type: 'varchar', length: 32, nullable: true })
  agentSId!: string | null;

  @Column({ name: 'agent_version', type: 'int', nullable: true })
  agentVersion!: number | null;

  @Column({ name: 'model_provider_id', type: 'varchar', length: 16, nullable: true })
  modelProviderId!: string | null;

  @Column({ name: 'model_id', type: 'varchar', length: 128, nullable: true })
  modelId!: string | null;

  /** The user message the run answers. */
  @Column({ name: 'answered_message_id', type: 'int', nullable: true })
  answeredMessageId!: number | null;

  // Sums of the run's model calls (its `run_agent` runs' included); null while no call reported usage.
  @Column({ name: 'prompt_tokens', type: 'int', nullable: true })
  promptTokens!: number | null;

  @Column({ name: 'completion_tokens', type: 'int', nullable: true })
  completionTokens!: number | null;

  @Column({ name: 'reasoning_tokens', type: 'int', nullable: true })
  reasoningTokens!: number | null;

  /**
   * The text each model step that called tools wrote, by step: a resumed run gives the model its
   * own words back, and tells the text of a step cut mid-answer from that of the steps before.
   */
  @Column({ name: 'step_texts', type: 'jsonb', default: () => "'{}'" })
  stepTexts!: Record<string, string>;

  /** What the run's calls under way hold of its month's budget (`workspace_run_tokens`); bigint, as text. */
  @Column({ name: 'reserved_tokens', type: 'bigint', default: 0 })
  reservedTokens!: string;

  @Column({ name: 'runner_id', type: 'varchar', length: 64, nullable: true })
  runnerId!: string | null;

  @Column({ name: 'runner_heartbeat_at', ...timestamptz, nullable: true })
  runnerHeartbeatAt!: Date | null;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'finished_at', ...timestamptz, nullable: true })
  finishedAt!: Date | null;
}

/**
 * The tokens of a workspace's runs started in a calendar month (UTC): those their calls used, and
 * those their calls under way hold. A call reserves with one conditional write to this row, which
 * every process's calls of the workspace take in turn, so none can pass the budget between a read
 * and a write. Bigints, read as text.
 */
@Entity('workspace_run_tokens')
export class WorkspaceRunTokensEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  /** The month's first instant, UTC. */
  @PrimaryColumn({ name: 'period_start', ...timestamptz })
  periodStart!: Date;

  @Column({ name: 'used_tokens', type: 'bigint', default: 0 })
  usedTokens!: string;

  @Column({ name: 'reserved_tokens', type: 'bigint', default: 0 })
  reservedTokens!: string;
}

/** The tool calls of runs, with the approvals they wait for. */
@Entity('agent_run_actions')
@Index('IDX_agent_run_actions_workspace_s_id', ['workspaceId', 'sId'], { unique: true })
@Index('IDX_agent_run_actions_run', ['runId', 'id'])
@Index('IDX_agent_run_actions_awaiting', ['approverId'], {
  where: "status = 'blocked_validation_required'",
})
export class RunActionEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'run_id', type: 'int' })
  runId!: number;

  @ManyToOne(() => AgentRunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id' })
  run?: AgentRunEntity;

  @Column({ type: 'int' })
  step!: number;

  @Column({ name: 'tool_call_id', type: 'varchar', length: 128 })
  toolCallId!: string;

  @Column({ name: 'function_call_name', type: 'varchar', length: 64 })
  functionCallName!: string;

  @Column({ name: 'mcp_server_name', type: 'varchar', length: 100 })
  mcpServerName!: string;

  @Column({ name: 'mcp_server_id', type: 'varchar', length: 32, nullable: true })
  mcpServerId!: string | null;

  @Column({ name: 'internal_mcp_server_name', type: 'varchar', length: 100, nullable: true })
  internalMcpServerName!: string | null;

  @Column({ name: 'tool_name', type: 'varchar', length: 128 })
  toolName!: string;

  @Column({ type: 'jsonb' })
  params!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 32 })
  status!: ActionStatus;

  @Column({ type: 'jsonb', nullable: true })
  output!: ActionOutput | null;

  @Column({ name: 'execution_duration_ms', type: 'int', nullable: true })
  executionDurationMs!: number | null;

  @Column({ name: 'approval_deadline', ...timestamptz, nullable: true })
  approvalDeadline!: Date | null;

  @Column({ name: 'approver_id', type: 'int', nullable: true })
  approverId!: number | null;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;

  // Every update through the repository sets it (TypeORM's update date column).
  @UpdateDateColumn({ name: 'updated_at', ...timestamptz, default: () => 'now()' })
  updatedAt!: Date;
}

/** Servers members' clients lend to their runs, alive until `expires_at` unless a heartbeat extends it. */
@Entity('client_mcp_servers')
@Index('IDX_client_mcp_servers_owner', ['workspaceId', 'userId'])
@Index('IDX_client_mcp_servers_s_id', ['sId'], { unique: true })
@Index('IDX_client_mcp_servers_expires', ['expiresAt'])
export class ClientMcpServerEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'user_id', type: 'int' })
  userId!: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'expires_at', ...timestamptz })
  expiresAt!: Date;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

/**
 * JSON-RPC messages queued for a client-side server, and the answers its client posted. No foreign
 * key: a dropped server's unanswered requests stay, ended, until the run waiting for them reads why.
 */
@Entity('client_mcp_requests')
@Index('IDX_client_mcp_requests_server', ['serverId', 'id'])
export class ClientMcpRequestEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'server_id', type: 'int' })
  serverId!: number;

  @Column({ type: 'jsonb' })
  message!: Record<string, unknown>;

  @Column({ name: 'expects_answer', type: 'boolean' })
  expectsAnswer!: boolean;

  @Column({ type: 'jsonb', nullable: true })
  answer!: Record<string, unknown> | null;

  @Column({ name: 'dropped_reason', type: 'text', nullable: true })
  droppedReason!: string | null;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

/**
 * The answers posted messages ask for, from the transaction that writes the message until the one
 * that starts their runs (which deletes the request): any process may take one, in turn.
 */
@Entity('run_requests')
@Index('IDX_run_requests_workspace', ['workspaceId', 'id'])
export class RunRequestEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

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

  /** The user message to answer. */
  @Column({ name: 'message_id', type: 'int' })
  messageId!: number;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: MessageEntity;

  @Column({ name: 'user_id', type: 'int' })
  userId!: number;

  @Column({ name: 'key_id', type: 'varchar', length: 64 })
  keyId!: string;

  @Column({ type: 'jsonb' })
  scopes!: string[];

  @Column({ name: 'new_agent_mentions', type: 'jsonb' })
  newAgentMentions!: string[];

  @Column({ name: 'rerun_message_ids', type: 'jsonb' })
  rerunMessageIds!: number[];

  /** Starts that failed: each puts the request off for longer, until it is given up. */
  @Column({ type: 'int', default: 0 })
  attempts!: number;

  /** Not claimed before then: a request whose start failed waits before it is tried again. */
  @Column({ name: 'available_at', ...timestamptz, default: () => 'now()' })
  availableAt!: Date;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

export const RUNTIME_ENTITIES = [
  AgentRunEntity,
  RunRequestEntity,
  WorkspaceRunTokensEntity,
  RunActionEntity,
  ClientMcpServerEntity,
  ClientMcpRequestEntity,
];
