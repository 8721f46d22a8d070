import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { ActionStatus } from 'src/modules/conversations/domain/action';

@ApiSchema({ name: 'ActionOutputItemSchema' })
export class ActionOutputItemView {
  type!: 'text';
  text!: string;
}

/**
 * One tool call of an agent message, as clients see it (in the message and in its events); `type`
 * and `agentMessageId` are those of Dust's tool actions.
 */
@ApiSchema({ name: 'AgentActionSchema' })
export class ActionView {
  /** @example act_4fQx9LmT2a */
  sId!: string;
  id!: number;
  /** Dust's kind of action: a tool call */
  type!: 'tool_action';
  /** Row id of the agent message (its agentMessageId) */
  agentMessageId!: number;
  /**
   * The function the model called: `<server>__<tool>`.
   * @example crm__delete_record
   */
  functionCallName!: string;
  /**
   * The model's id for the call (its tool results go back under it).
   * @example call_Jx81sPq2
   */
  functionCallId!: string;
  /** @example crm */
  mcpServerName!: string;
  /**
   * sId of the remote MCP server called; null for an internal server or a call of no tool.
   * @example mcp_7Hd2kLq9Xa
   */
  mcpServerId!: string | null;
  /**
   * Name of the internal server called; null otherwise.
   * @example search
   */
  internalMCPServerName!: string | null;
  /** @example delete_record */
  toolName!: string;
  /** @example {"id": "rec_42"} */
  params!: Record<string, unknown>;
  status!: ActionStatus;
  /** Null until the call ends. */
  output!: ActionOutputItemView[] | null;
  /**
   * The step of the run (0-based) whose model answer asked for the call; -1 for a toolset entry not
   * offered to the run (its output says why).
   */
  step!: number;
  createdAt!: number;
  /** Its last change of status (ms). */
  updatedAt!: number;
  executionDurationMs!: number | null;
  @ApiProperty({
    enum: [0],
    description: 'Citation slots reserved for its results: tools here cite nothing.',
  })
  citationsAllocated!: 0;
  @ApiProperty({
    type: 'array',
    items: {},
    maxItems: 0,
    description: 'Files it produced: tools here return text.',
  })
  generatedFiles!: never[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    nullable: true,
    description: 'Always null: tools here declare no running/done labels.',
  })
  displayLabels!: null;
}

@ApiSchema({ name: 'BlockedActionMetadataSchema' })
export class BlockedActionMetadataView {
  /** @example delete_record */
  toolName!: string;
  /** @example crm */
  mcpServerName!: string;
  /** @example "Support triage" */
  agentName!: string;
}

/** A call waiting for approval, as `actions/blocked` lists it. */
@ApiSchema({ name: 'BlockedActionSchema' })
export class BlockedActionView {
  conversationId!: string;
  /** sId of the agent message that made the call */
  messageId!: string;
  /** sId of the agent */
  configurationId!: string;
  /** @example act_4fQx9LmT2a */
  actionId!: string;
  /** Why it waits: for its approver's answer */
  status!: 'blocked_validation_required';
  /** @example crm__delete_record */
  functionCallName!: string;
  /** @example {"id": "rec_42"} */
  inputs!: Record<string, unknown>;
  metadata!: BlockedActionMetadataView;
  createdAt!: number;
  /** Unanswered by then (ms), the call is declined. */
  expiresAt!: number | null;
}

export class ValidateActionResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  /** The action after the answer. */
  action!: ActionView;
}

export class BlockedActionsResponse {
  blockedActions!: BlockedActionView[];
}
