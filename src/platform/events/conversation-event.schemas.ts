import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';

/**
 * The seven event types of the stream (endpoint 7), for the OpenAPI document. Message payloads
 * reference the `UserMessage` and `AgentMessage` schemas of the conversations context.
 */
class UserMessageNewEvent {
  @ApiProperty({ enum: ['user_message_new'] }) type!: 'user_message_new';
  @ApiProperty() created!: number;
  @ApiProperty() messageId!: string;
  @ApiProperty({ allOf: [{ $ref: '#/components/schemas/UserMessage' }] }) message!: unknown;
}

class AgentMessageNewEvent {
  @ApiProperty({ enum: ['agent_message_new'] }) type!: 'agent_message_new';
  @ApiProperty() created!: number;
  @ApiProperty({ description: 'sId of the agent' }) configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ allOf: [{ $ref: '#/components/schemas/AgentMessage' }] }) message!: unknown;
}

class GenerationTokensEvent {
  @ApiProperty({ enum: ['generation_tokens'] }) type!: 'generation_tokens';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ description: 'The next chunk of the answer' }) text!: string;
}

class AgentMessageDoneEvent {
  @ApiProperty({ enum: ['agent_message_done'] }) type!: 'agent_message_done';
  @ApiProperty() created!: number;
  @ApiProperty() conversationId!: string;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ enum: ['success', 'error'] }) status!: 'success' | 'error';
}

class AgentGenerationCancelledEvent {
  @ApiProperty({ enum: ['agent_generation_cancelled'] }) type!: 'agent_generation_cancelled';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
}

class ConversationTitleEvent {
  @ApiProperty({ enum: ['conversation_title'] }) type!: 'conversation_title';
  @ApiProperty() created!: number;
  @ApiProperty() title!: string;
}

class WakeUpUpdatedEvent {
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
