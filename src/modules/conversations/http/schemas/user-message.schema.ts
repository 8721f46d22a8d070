import type {
  AgenticMessageDataView,
  MentionView,
  MessageContextView,
  MessageUserView,
  ReactionUserView,
  ReactionView,
  RichMentionView,
  UserMessageView,
} from 'src/modules/conversations/application/views/message.view';

/** The specification's four fields, and the rest of Dust's UserType. */
export class MessageUserSchema implements MessageUserView {
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

export class MentionSchema implements MentionView {
  /** sId of the mentioned agent */
  configurationId?: string;
  /** @example user */
  type?: string;
  /** sId of the mentioned member */
  userId?: string;
}

export class RichMentionSchema implements RichMentionView {
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

export class ContextSchema implements MessageContextView {
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

export class AgenticMessageDataSchema implements AgenticMessageDataView {
  type!: 'run_agent' | 'agent_handover';
  /** sId of the message the agent acted on. */
  originMessageId!: string;
}

export class ReactionUserSchema implements ReactionUserView {
  userId!: string;
  username!: string;
  fullName!: string;
}

export class ReactionSchema implements ReactionView {
  emoji!: string;
  users!: ReactionUserSchema[];
}

export class UserMessage implements UserMessageView {
  type!: 'user_message';
  sId!: string;
  created!: number;
  version!: number;
  rank!: number;
  content!: string;
  id!: number;
  /** @example visible */
  visibility!: 'visible';
  user!: MessageUserSchema;
  mentions!: MentionSchema[];
  richMentions!: RichMentionSchema[];
  context!: ContextSchema;
  /** Set when an agent posted it for another. */
  agenticMessageData!: AgenticMessageDataSchema | null;
  reactions!: ReactionSchema[];
}
