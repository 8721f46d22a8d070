import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';

/** The specification's four fields, and the rest of Dust's UserType. */
class MessageUserSchema {
  @ApiProperty() sId!: string;
  @ApiProperty({ example: 7, description: 'Row id of the user' }) id!: number;
  @ApiProperty({ example: 1795413517290 }) createdAt!: number;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'api',
    description: 'Identity provider kind; `api` for users the API manages',
  })
  provider!: string | null;
  @ApiProperty() username!: string;
  @ApiProperty({ example: 'ada@example.com' }) email!: string;
  @ApiProperty({ example: 'Ada' }) firstName!: string;
  @ApiProperty({ example: 'Lovelace', description: 'Empty for a one-word name' }) lastName!: string;
  @ApiProperty() fullName!: string;
  @ApiProperty() image!: string;
}

class MentionSchema {
  @ApiPropertyOptional({ description: 'sId of the mentioned agent' }) configurationId?: string;
  @ApiPropertyOptional({ example: 'user' }) type?: string;
  @ApiPropertyOptional({ description: 'sId of the mentioned member' }) userId?: string;
}

class RichMentionSchema {
  @ApiProperty() id!: string;
  @ApiProperty({ example: 'agent' }) type!: string;
  @ApiProperty() label!: string;
  @ApiProperty() pictureUrl!: string;
  @ApiProperty() description!: string;
  @ApiProperty() dismissed!: boolean;
  @ApiProperty({
    example: 'approved',
    description: '`pending_conversation_access` when the caller cannot read the agent',
  })
  status!: string;
  @ApiProperty() userFavorite!: boolean;
}

class ContextSchema {
  @ApiProperty() username!: string;
  @ApiProperty() timezone!: string;
  @ApiProperty({ example: 'web' }) origin!: string;
  @ApiProperty() fullName!: string;
  @ApiProperty() email!: string;
  @ApiProperty() profilePictureUrl!: string;
}

class ReactionUserSchema {
  @ApiProperty() userId!: string;
  @ApiProperty() username!: string;
  @ApiProperty() fullName!: string;
}

class ReactionSchema {
  @ApiProperty() emoji!: string;
  @ApiProperty({ type: [ReactionUserSchema] }) users!: ReactionUserSchema[];
}

export class UserMessage {
  @ApiProperty({ enum: ['user_message'] }) type!: 'user_message';
  @ApiProperty() sId!: string;
  @ApiProperty() created!: number;
  @ApiProperty() version!: number;
  @ApiProperty() rank!: number;
  @ApiProperty() content!: string;
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'visible' }) visibility!: string;
  @ApiProperty({ type: MessageUserSchema }) user!: MessageUserSchema;
  @ApiProperty({ type: [MentionSchema] }) mentions!: MentionSchema[];
  @ApiProperty({ type: [RichMentionSchema] }) richMentions!: RichMentionSchema[];
  @ApiProperty({ type: ContextSchema }) context!: ContextSchema;
  @ApiProperty({ type: [ReactionSchema] }) reactions!: ReactionSchema[];
}

class LightAgentModelSchema {
  @ApiProperty({ example: 'openai' }) providerId!: string;
  @ApiProperty({ example: 'gpt-4o-mini' }) modelId!: string;
  @ApiProperty({ example: 0.7 }) temperature!: number;
}

/** Dust's light agent form: the agent version that answers. */
class LightAgentConfigurationSchema {
  @ApiProperty() id!: number;
  @ApiProperty() sId!: string;
  @ApiProperty() version!: number;
  @ApiProperty({ description: 'ISO 8601' }) versionCreatedAt!: string;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Row id of the author; null for built-in agents',
  })
  versionAuthorId!: number | null;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Always null in a message: its readers may not be allowed to read the agent',
  })
  instructions!: null;
  @ApiProperty() pictureUrl!: string;
  @ApiProperty({ example: 'active' }) status!: string;
  @ApiProperty({ example: 'visible' }) scope!: string;
  @ApiProperty({ enum: [false], description: 'False: a message is the same for every reader' })
  userFavorite!: false;
  @ApiProperty({ type: LightAgentModelSchema }) model!: LightAgentModelSchema;
  @ApiProperty() maxStepsPerRun!: number;
  @ApiProperty() visualizationEnabled!: boolean;
  @ApiProperty({ type: String, nullable: true }) templateId!: string | null;
  @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'string' } } })
  requestedGroupIds!: string[][];
}

class AgentErrorSchema {
  @ApiProperty({ example: 'model_error' }) code!: string;
  @ApiProperty() message!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "Dust's error details: always null here (the message says it all)",
  })
  metadata!: null;
}

class ActionOutputItemSchema {
  @ApiProperty({ enum: ['text'] }) type!: 'text';
  @ApiProperty() text!: string;
}

class RawContentSchema {
  @ApiProperty({ example: 0 }) step!: number;
  @ApiProperty() content!: string;
}

/** One tool call of an agent message. */
export class AgentActionSchema {
  @ApiProperty({ example: 'act_4fQx9LmT2a' }) sId!: string;
  @ApiProperty() id!: number;
  @ApiProperty({ enum: ['tool_action'], description: "Dust's kind of action: a tool call" })
  type!: 'tool_action';
  @ApiProperty({ description: 'Row id of the agent message (its agentMessageId)' }) agentMessageId!: number;
  @ApiProperty({
    example: 'crm__delete_record',
    description: 'The function the model called: `<server>__<tool>`.',
  })
  functionCallName!: string;
  @ApiProperty({ example: 'crm' }) mcpServerName!: string;
  @ApiProperty({ example: 'delete_record' }) toolName!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { id: 'rec_42' } })
  params!: Record<string, unknown>;
  @ApiProperty({ enum: ['running', 'succeeded', 'failed', 'blocked_validation_required', 'denied'] })
  status!: string;
  @ApiProperty({ type: [ActionOutputItemSchema], nullable: true, description: 'Null until the call ends.' })
  output!: ActionOutputItemSchema[] | null;
  @ApiProperty({
    description:
      'The step of the run (0-based) whose model answer asked for the call; -1 for a toolset entry not offered to the run (its output says why).',
  })
  step!: number;
  @ApiProperty() createdAt!: number;
  @ApiProperty({ type: Number, nullable: true }) executionDurationMs!: number | null;
}

export class AgentMessage {
  @ApiProperty({ enum: ['agent_message'] }) type!: 'agent_message';
  @ApiProperty() sId!: string;
  @ApiProperty() id!: number;
  @ApiProperty({ description: "Dust's agent message id: here the message's row id" }) agentMessageId!: number;
  @ApiProperty() version!: number;
  @ApiProperty() rank!: number;
  @ApiProperty() created!: number;
  @ApiProperty({ enum: ['visible'] }) visibility!: 'visible';
  @ApiProperty({ description: 'sId of the user message answered' }) parentMessageId!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Always null: an answer here always answers a user message',
  })
  parentAgentMessageId!: null;
  @ApiProperty({ type: LightAgentConfigurationSchema }) configuration!: LightAgentConfigurationSchema;
  @ApiProperty({ enum: ['created', 'succeeded', 'failed', 'cancelled'] }) status!: string;
  @ApiProperty() content!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Always null: model reasoning is streamed (classification chain_of_thought), not kept',
  })
  chainOfThought!: null;
  @ApiProperty({
    type: [RawContentSchema],
    description: 'The answer as one entry (per-step outputs are not kept apart); empty while it is empty',
  })
  rawContents!: RawContentSchema[];
  @ApiProperty({ type: AgentErrorSchema, nullable: true }) error!: AgentErrorSchema | null;
  @ApiProperty({ type: Number, nullable: true }) completedTs!: number | null;
  @ApiProperty({ type: [AgentActionSchema], description: 'The tool calls of the answer, in call order.' })
  actions!: AgentActionSchema[];
}

class ForkUserSchema {
  @ApiProperty() sId!: string;
  @ApiProperty() id!: number;
  @ApiProperty() createdAt!: number;
  @ApiProperty({ example: 'api' }) provider!: string;
  @ApiProperty() username!: string;
  @ApiProperty() email!: string;
  @ApiProperty() firstName!: string;
  @ApiProperty() lastName!: string;
  @ApiProperty() fullName!: string;
  @ApiProperty() image!: string;
  @ApiProperty({ type: Number, nullable: true }) lastLoginAt!: number | null;
}

class ForkedFromSchema {
  @ApiProperty() parentConversationId!: string;
  @ApiProperty({ type: String, nullable: true }) parentConversationTitle!: string | null;
  @ApiProperty() sourceMessageId!: string;
  @ApiProperty() branchedAt!: number;
  @ApiProperty({ type: ForkUserSchema, nullable: true }) user!: ForkUserSchema | null;
  @ApiProperty({ enum: ['pending', 'completed'] }) fileCopyStatus!: 'pending' | 'completed';
}

class ForkedChildSchema {
  @ApiProperty() childConversationId!: string;
  @ApiProperty({ type: String, nullable: true }) childConversationTitle!: string | null;
  @ApiProperty() sourceMessageId!: string;
  @ApiProperty() branchedAt!: number;
  @ApiProperty({ type: ForkUserSchema, nullable: true }) user!: ForkUserSchema | null;
}

/** The conversation's workspace, as Dust's WorkspaceType. */
class ConversationOwnerSchema {
  @ApiProperty({ example: 12 }) id!: number;
  @ApiProperty({ example: 'Wk3xY8qPzL' }) sId!: string;
  @ApiProperty({ example: 'Acme' }) name!: string;
  @ApiProperty({ enum: ['admin', 'builder', 'user'], description: "The caller's role in the workspace" })
  role!: 'admin' | 'builder' | 'user';
  @ApiProperty({ type: String, nullable: true, description: 'Always null here (Dust field).' })
  segmentation!: null;
  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'Always null: every configured provider is allowed (Dust field).',
  })
  whiteListedProviders!: null;
  @ApiProperty({ type: String, nullable: true, description: 'Always null here (Dust field).' })
  defaultEmbeddingProvider!: null;
}

class ForkingDataSchema {
  @ApiProperty({ type: ForkedFromSchema, nullable: true }) forkedFrom!: ForkedFromSchema | null;
  @ApiProperty({ type: [ForkedChildSchema] }) forkedChildren!: ForkedChildSchema[];
}

/** The conversation without content (endpoint 11). */
export class ConversationView {
  @ApiProperty() id!: number;
  @ApiProperty() created!: number;
  @ApiProperty() updated!: number;
  @ApiProperty() sId!: string;
  @ApiProperty() depth!: number;
  @ApiProperty() unread!: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'null until the caller has read it' })
  lastReadMs!: number | null;
  @ApiProperty() actionRequired!: boolean;
  @ApiProperty() hasError!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'null until set or derived from the first message',
  })
  title!: string | null;
  @ApiProperty({ type: String, nullable: true }) spaceId!: string | null;
  @ApiProperty({ type: String, nullable: true }) triggerId!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata!: Record<string, unknown>;
  @ApiProperty({
    type: [String],
    description:
      'sIds of the spaces a reader must all access: those its agents need, and those whose data ' +
      '(search and include_data outputs) it holds. Spaces are only ever added.',
  })
  requestedSpaceIds!: string[];
  @ApiProperty({ type: ForkingDataSchema }) forkingData!: ForkingDataSchema;
  @ApiProperty({ type: ConversationOwnerSchema }) owner!: ConversationOwnerSchema;
  @ApiProperty({
    enum: ['unlisted'],
    description:
      "Dust's visibility: a conversation is seen by its participants (deleted ones are not served).",
  })
  visibility!: 'unlisted';
  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
    description: 'requestedSpaceIds as groups: each space is its own group (Dust field).',
  })
  requestedGroupIds!: string[][];
}

export class ConversationResponse {
  @ApiProperty({ type: ConversationView }) conversation!: ConversationView;
}

/** Dust's description of who added a fragment: not recorded here, so every field is null. */
class ContentFragmentContextSchema {
  @ApiProperty({ type: String, nullable: true }) username!: null;
  @ApiProperty({ type: String, nullable: true }) fullName!: null;
  @ApiProperty({ type: String, nullable: true }) email!: null;
  @ApiProperty({ type: String, nullable: true }) profilePictureUrl!: null;
}

/** A file or inline text put in a conversation: a slot of the message list of its own. */
export class ContentFragment {
  @ApiProperty({ enum: ['content_fragment'] }) type!: 'content_fragment';
  @ApiProperty({ example: 'Xq3bT9kLmA' }) sId!: string;
  @ApiProperty({ example: 42 }) id!: number;
  @ApiProperty({ example: 0 }) rank!: number;
  @ApiProperty({ example: 0 }) version!: number;
  @ApiProperty({ example: 1795413517290 }) created!: number;
  @ApiProperty({ example: 'Q3 board deck.pdf' }) title!: string;
  @ApiProperty({ example: 'application/pdf' }) contentType!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'fil_8Kd02mXq1a',
    description: 'null for inline text',
  })
  fileId!: string | null;
  @ApiProperty({ example: 18_342, description: 'UTF-8 bytes of its text (0 for an image or audio file)' })
  textBytes!: number;
  @ApiProperty({ enum: ['visible'] }) visibility!: 'visible';
  @ApiProperty({ example: 'Xq3bT9kLmA', description: "Dust's id across versions: the sId" })
  contentFragmentId!: string;
  @ApiProperty({ enum: ['latest'], description: 'A fragment has one version' })
  contentFragmentVersion!: 'latest';
  @ApiProperty({
    example: '/api/w/Wk3xY8qPzL/assistant/conversations/Cv3nR8tY1a/content_fragments/Xq3bT9kLmA/text',
    description: 'API path of its text (GET, readers of the conversation)',
  })
  textUrl!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Always null: no source URL is recorded' })
  sourceUrl!: null;
  @ApiProperty({ type: ContentFragmentContextSchema }) context!: ContentFragmentContextSchema;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'Always null: set by Dust for a fragment taken from a data source node',
  })
  contentNodeData!: null;
}

export class ContentFragmentResponse {
  @ApiProperty({ type: ContentFragment }) contentFragment!: ContentFragment;
}

export class CreatedConversationResponse {
  @ApiProperty({ type: ConversationView }) conversation!: ConversationView;
  @ApiPropertyOptional({ type: UserMessage }) message?: UserMessage;
  @ApiPropertyOptional({ type: [ContentFragment], description: 'The content fragments given, in order' })
  contentFragments?: ContentFragment[];
}

export class ConversationsResponse {
  @ApiProperty({ type: [ConversationView] }) conversations!: ConversationView[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
}

export class UserMessageResponse {
  @ApiProperty({ type: UserMessage }) message!: UserMessage;
}

@ApiExtraModels(UserMessage, AgentMessage)
export class MessageResponse {
  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(UserMessage) }, { $ref: getSchemaPath(AgentMessage) }] })
  message!: UserMessage | AgentMessage;
}

@ApiExtraModels(UserMessage, AgentMessage, ContentFragment)
export class MessagesResponse {
  @ApiProperty({
    type: 'array',
    items: {
      oneOf: [
        { $ref: getSchemaPath(UserMessage) },
        { $ref: getSchemaPath(AgentMessage) },
        { $ref: getSchemaPath(ContentFragment) },
      ],
      discriminator: { propertyName: 'type' },
    },
  })
  messages!: (UserMessage | AgentMessage | ContentFragment)[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
}
