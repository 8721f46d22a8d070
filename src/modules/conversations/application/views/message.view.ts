import { ApiProperty, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { LightAgentConfigurationView } from 'src/modules/agents/agents.api';
import { ActionView } from 'src/modules/conversations/application/views/action.view';
import { ContentFragmentView } from 'src/modules/conversations/application/views/content-fragment.view';
import type { AgentMessageStatus } from 'src/modules/conversations/domain/message';

/** The specification's four fields, and the rest of Dust's UserType. */
@ApiSchema({ name: 'MessageUserSchema' })
export class MessageUserView {
  sId!: string;
  /**
   * Row id of the user
   * @example 7
   */
  id!: number;
  /** @example 1795413517290 */
  createdAt!: number;
  /**
   * Identity provider kind; `api` for users the API manages
   * @example api
   */
  provider!: string | null;
  username!: string;
  /** @example ada@example.com */
  email!: string;
  /** @example Ada */
  firstName!: string;
  /**
   * Empty for a one-word name
   * @example Lovelace
   */
  lastName!: string;
  fullName!: string;
  image!: string;
}

/** `{configurationId}` mentions an agent; `{type: 'user', userId}` mentions a member. */
@ApiSchema({ name: 'MentionSchema' })
export class MentionView {
  /** sId of the mentioned agent */
  configurationId?: string;
  /** @example user */
  type?: string;
  /** sId of the mentioned member */
  userId?: string;
}

@ApiSchema({ name: 'RichMentionSchema' })
export class RichMentionView {
  id!: string;
  /** @example agent */
  type!: 'agent';
  label!: string;
  pictureUrl!: string;
  description!: string;
  dismissed!: boolean;
  /**
   * `pending_conversation_access` when the caller cannot read the agent
   * @example approved
   */
  status!: string;
  userFavorite!: boolean;
}

@ApiSchema({ name: 'ContextSchema' })
export class MessageContextView {
  username!: string;
  timezone!: string;
  /** @example web */
  origin!: string;
  fullName!: string;
  email!: string;
  profilePictureUrl!: string;
  /** Client-side MCP servers its client lends to its runs; null when none were given. */
  clientSideMCPServerIds!: string[] | null;
  /**
   * Tool server views whose tools its runs get besides their agent's; null when none were given.
   * @example ["msv_4RbQ7yLm2P"]
   */
  selectedMCPServerViewIds!: string[] | null;
  /** When the trigger that posted it last ran (ms), as its client said. */
  lastTriggerRunAt!: number | null;
}

@ApiSchema({ name: 'AgenticMessageDataSchema' })
export class AgenticMessageDataView {
  type!: 'run_agent' | 'agent_handover';
  /** sId of the message the agent acted on. */
  originMessageId!: string;
}

@ApiSchema({ name: 'ReactionUserSchema' })
export class ReactionUserView {
  userId!: string;
  username!: string;
  fullName!: string;
}

@ApiSchema({ name: 'ReactionSchema' })
export class ReactionView {
  emoji!: string;
  users!: ReactionUserView[];
}

/** The user message of the specification's table, field for field. */
@ApiSchema({ name: 'UserMessage' })
export class UserMessageView {
  type!: 'user_message';
  sId!: string;
  created!: number;
  version!: number;
  rank!: number;
  content!: string;
  id!: number;
  /** @example visible */
  visibility!: 'visible';
  user!: MessageUserView;
  mentions!: MentionView[];
  richMentions!: RichMentionView[];
  context!: MessageContextView;
  /** Set when an agent posted it for another. */
  agenticMessageData!: AgenticMessageDataView | null;
  reactions!: ReactionView[];
}

@ApiSchema({ name: 'AgentErrorSchema' })
export class AgentErrorView {
  /** @example model_error */
  code!: string;
  message!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "Dust's error details: always null here (the message says it all)",
  })
  metadata!: null;
}

@ApiSchema({ name: 'RawContentSchema' })
export class RawContentView {
  /** @example 0 */
  step!: number;
  content!: string;
}

/**
 * An agent's answer: one slot per mentioned agent, after the user message it answers. Besides our
 * fields, those of Dust's agent message, so that Dust's client reads it.
 */
@ApiSchema({ name: 'AgentMessage' })
export class AgentMessageView {
  type!: 'agent_message';
  sId!: string;
  id!: number;
  /** Dust's agent message id: here the message's row id */
  agentMessageId!: number;
  version!: number;
  rank!: number;
  created!: number;
  visibility!: 'visible';
  /** sId of the user message answered */
  parentMessageId!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Always null: an answer here always answers a user message',
  })
  parentAgentMessageId!: null;
  configuration!: LightAgentConfigurationView;
  status!: AgentMessageStatus;
  content!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Always null: model reasoning is streamed (classification chain_of_thought), not kept',
  })
  chainOfThought!: null;
  /** The answer as one entry (per-step outputs are not kept apart); empty while it is empty */
  rawContents!: RawContentView[];
  error!: AgentErrorView | null;
  completedTs!: number | null;
  /** The tool calls of the answer, in call order. */
  actions!: ActionView[];
}

export type MessageView = UserMessageView | AgentMessageView;

/** A slot of the message list: a message or a content fragment. */
export type SlotView = MessageView | ContentFragmentView;

export class UserMessageResponse {
  message!: UserMessageView;
}

export class AgentMessageResponse {
  message!: AgentMessageView;
}

export class MessageResponse {
  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(UserMessageView) }, { $ref: getSchemaPath(AgentMessageView) }],
  })
  message!: MessageView;
}

export class MessagesResponse {
  @ApiProperty({
    type: 'array',
    items: {
      oneOf: [
        { $ref: getSchemaPath(UserMessageView) },
        { $ref: getSchemaPath(AgentMessageView) },
        { $ref: getSchemaPath(ContentFragmentView) },
      ],
      discriminator: { propertyName: 'type' },
    },
  })
  messages!: SlotView[];
  nextCursor!: string | null;
}
