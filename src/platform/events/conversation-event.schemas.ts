import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type { ConversationEventOf } from 'src/platform/events/conversation-event';

/**
 * The seven event types of the stream (endpoint 7), for the OpenAPI document; each implements its
 * type's payload, so the document and what is written cannot drift apart. Message payloads
 * reference the `UserMessage` and `AgentMessage` schemas of the conversations context.
 */
class UserMessageNewEvent implements ConversationEventOf<'user_message_new'> {
  @ApiProperty({ enum: ['user_message_new'] }) type!: 'user_message_new';
  @ApiProperty() created!: number;
  @ApiProperty() messageId!: string;
  @ApiProperty({ allOf: [{ $ref: '#/components/schemas/UserMessage' }] }) message!: unknown;
}

class AgentMessageNewEvent implements ConversationEventOf<'agent_message_new'> {
  @ApiProperty({ enum: ['agent_message_new'] }) type!: 'agent_message_new';
  @ApiProperty() created!: number;
  @ApiProperty({ description: 'sId of the agent' }) configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ allOf: [{ $ref: '#/components/schemas/AgentMessage' }] }) message!: unknown;
}

class GenerationTokensEvent implements ConversationEventOf<'generation_tokens'> {
  @ApiProperty({ enum: ['generation_tokens'] }) type!: 'generation_tokens';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ description: 'The next chunk of the answer' }) text!: string;
}

class AgentMessageDoneEvent implements ConversationEventOf<'agent_message_done'> {
  @ApiProperty({ enum: ['agent_message_done'] }) type!: 'agent_message_done';
  @ApiProperty() created!: number;
  @ApiProperty() conversationId!: string;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ enum: ['success', 'error'] }) status!: 'success' | 'error';
}

class AgentGenerationCancelledEvent implements ConversationEventOf<'agent_generation_cancelled'> {
  @ApiProperty({ enum: ['agent_generation_cancelled'] }) type!: 'agent_generation_cancelled';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
}

class ConversationTitleEvent implements ConversationEventOf<'conversation_title'> {
  @ApiProperty({ enum: ['conversation_title'] }) type!: 'conversation_title';
  @ApiProperty() created!: number;
  @ApiProperty() title!: string;
}

class WakeUpUpdatedEvent implements ConversationEventOf<'wake_up_updated'> {
  @ApiProperty({ enum: ['wake_up_updated'] }) type!: 'wake_up_updated';
  @ApiProperty() created!: number;
  @ApiProperty() conversationId!: string;
  @ApiProperty({ allOf: [{ $ref: '#/components/schemas/WakeUp' }] })
  wakeUp!: unknown;
}

const EVENT_SCHEMAS = {
  user_message_new: UserMessageNewEvent,
  agent_message_new: AgentMessageNewEvent,
  generation_tokens: GenerationTokensEvent,
  agent_message_done: AgentMessageDoneEvent,
  agent_generation_cancelled: AgentGenerationCancelledEvent,
  conversation_title: ConversationTitleEvent,
  wake_up_updated: WakeUpUpdatedEvent,
};

@ApiExtraModels(...Object.values(EVENT_SCHEMAS))
export class ConversationStreamEvent {}

/** The `oneOf` with its discriminator, as the stream's documented payload. */
export const CONVERSATION_EVENT_SCHEMA = {
  oneOf: Object.values(EVENT_SCHEMAS).map((schema) => ({ $ref: getSchemaPath(schema) })),
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(
      Object.entries(EVENT_SCHEMAS).map(([type, schema]) => [type, getSchemaPath(schema)]),
    ),
  },
};
