import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type {
  ConversationDetails,
  ForkAuthor,
} from 'src/modules/conversations/application/conversation-details.loader';
import { defaultPictureUrl } from 'src/modules/conversations/domain/default-picture';
import { isUnread } from 'src/modules/conversations/domain/conversation';

class MessageUserSchema {
  @ApiProperty() sId!: string;
  @ApiProperty() username!: string;
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

class AgentConfigurationRefSchema {
  @ApiProperty() sId!: string;
  @ApiProperty() name!: string;
  @ApiProperty() pictureUrl!: string;
}

class AgentErrorSchema {
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
}

class ActionOutputItemSchema {
  @ApiProperty({ enum: ['text'] }) type!: 'text';
  @ApiProperty() text!: string;
}

/** One tool call of an agent message. */
export class AgentActionSchema {
  @ApiProperty({ example: 'act_4fQx9LmT2a' }) sId!: string;
  @ApiProperty() id!: number;
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
  @ApiProperty() version!: number;
  @ApiProperty() rank!: number;
  @ApiProperty() created!: number;
  @ApiProperty({ description: 'sId of the user message answered' }) parentMessageId!: string;
  @ApiProperty({ type: AgentConfigurationRefSchema }) configuration!: AgentConfigurationRefSchema;
  @ApiProperty({ enum: ['created', 'succeeded', 'failed', 'cancelled'] }) status!: string;
  @ApiProperty() content!: string;
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
  @ApiProperty({ enum: ['pending', 'completed'] }) fileCopyStatus!: string;
}

class ForkedChildSchema {
  @ApiProperty() childConversationId!: string;
  @ApiProperty({ type: String, nullable: true }) childConversationTitle!: string | null;
  @ApiProperty() sourceMessageId!: string;
  @ApiProperty() branchedAt!: number;
  @ApiProperty({ type: ForkUserSchema, nullable: true }) user!: ForkUserSchema | null;
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
  @ApiProperty({ type: [String] }) requestedSpaceIds!: string[];
  @ApiProperty({ type: ForkingDataSchema }) forkingData!: ForkingDataSchema;
}

export class ConversationResponse {
  @ApiProperty({ type: ConversationView }) conversation!: ConversationView;
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

function forkUser(user: ForkAuthor | null): ForkUserSchema | null {
  if (!user) return null;
  return {
    sId: user.sId,
    id: user.id,
    createdAt: user.createdAt.getTime(),
    provider: user.provider,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    fullName: user.fullName,
    image: user.image ?? defaultPictureUrl(user.sId),
    lastLoginAt: user.lastLoginAt?.getTime() ?? null,
  };
}

export function presentConversation(details: ConversationDetails): ConversationView {
  const { conversation, participation, forkedFrom } = details;
  return {
    id: conversation.id,
    created: conversation.createdAt.getTime(),
    updated: conversation.updatedAt.getTime(),
    sId: conversation.sId,
    depth: conversation.depth,
    unread: isUnread(conversation, participation),
    lastReadMs: participation?.lastReadAt?.getTime() ?? null,
    actionRequired: participation?.actionRequired ?? false,
    hasError: conversation.hasError,
    title: conversation.title,
    spaceId: details.spaceSId,
    triggerId: conversation.triggerId,
    metadata: conversation.metadata,
    requestedSpaceIds: conversation.requestedSpaceIds,
    forkingData: {
      forkedFrom: forkedFrom && {
        parentConversationId: forkedFrom.conversation.sId,
        parentConversationTitle: forkedFrom.conversation.title,
        sourceMessageId: forkedFrom.sourceMessageSId,
        branchedAt: forkedFrom.branchedAt.getTime(),
        user: forkUser(forkedFrom.user),
        fileCopyStatus: forkedFrom.fileCopyStatus,
      },
      forkedChildren: details.forkedChildren.map((child) => ({
        childConversationId: child.conversation.sId,
        childConversationTitle: child.conversation.title,
        sourceMessageId: child.sourceMessageSId,
        branchedAt: child.branchedAt.getTime(),
        user: forkUser(child.user),
      })),
    },
  };
}
