import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type { ConversationEventOf, TokensClassification } from 'src/platform/events/conversation-event';

/**
 * The seven event types of the stream (endpoint 7) and those of an agent message's own stream, for the OpenAPI document; each implements its
 * type's payload, so the document and what is written cannot drift apart. Message payloads
 * reference the `UserMessage` and `AgentMessage` schemas of the conversations context.
 */
class UserMessageNewEvent implements ConversationEventOf<'user_message_new'> {
  @ApiProperty({ enum: ['user_message_new'] }) type!: 'user_message_new';
  @ApiProperty() created!: number;
  @ApiProperty() messageId!: string;
  @ApiProperty({
    oneOf: [{ $ref: '#/components/schemas/UserMessage' }, { $ref: '#/components/schemas/ContentFragment' }],
    description: 'A user message, or a content fragment put in the conversation (type content_fragment)',
  })
  message!: unknown;
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
  @ApiProperty({
    enum: ['tokens', 'chain_of_thought'],
    description:
      "Dust's classification: `tokens` for the answer, `chain_of_thought` for the model's reasoning when its provider streams it (not part of the answer).",
  })
  classification!: TokensClassification;
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

const ACTION_REF = { allOf: [{ $ref: '#/components/schemas/AgentActionSchema' }] };

class AgentErrorDetail {
  @ApiProperty({ example: 'tool_call_failed' }) code!: string;
  @ApiProperty() message!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "Dust's details of an error: none here, always null.",
  })
  metadata!: null;
}

class ToolParamsEvent implements ConversationEventOf<'tool_params'> {
  @ApiProperty({ enum: ['tool_params'] }) type!: 'tool_params';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ ...ACTION_REF, description: 'The call and its arguments, as recorded.' }) action!: unknown;
}

class ToolApprovalMetadata {
  @ApiProperty() toolName!: string;
  @ApiProperty() mcpServerName!: string;
  @ApiProperty() agentName!: string;
}

class ToolApproveExecutionEvent implements ConversationEventOf<'tool_approve_execution'> {
  @ApiProperty({ enum: ['tool_approve_execution'] }) type!: 'tool_approve_execution';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() conversationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ description: 'Answer with validate-action and this id.' }) actionId!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) inputs!: Record<string, unknown>;
  @ApiProperty({ type: ToolApprovalMetadata }) metadata!: ToolApprovalMetadata;
  @ApiProperty(ACTION_REF) action!: unknown;
}

class AgentActionSuccessEvent implements ConversationEventOf<'agent_action_success'> {
  @ApiProperty({ enum: ['agent_action_success'] }) type!: 'agent_action_success';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty(ACTION_REF) action!: unknown;
}

class ToolErrorEvent implements ConversationEventOf<'tool_error'> {
  @ApiProperty({ enum: ['tool_error'] }) type!: 'tool_error';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({
    ...ACTION_REF,
    description: 'The call, failed or denied; its output is what the model was told.',
  })
  action!: unknown;
  @ApiProperty({ type: AgentErrorDetail }) error!: AgentErrorDetail;
}

class AgentMessageSuccessEvent implements ConversationEventOf<'agent_message_success'> {
  @ApiProperty({ enum: ['agent_message_success'] }) type!: 'agent_message_success';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ allOf: [{ $ref: '#/components/schemas/AgentMessage' }] }) message!: unknown;
  @ApiProperty({
    type: [String],
    description: 'The agent run that answered (its id), as Dust lists its runs.',
  })
  runIds!: string[];
}

class AgentErrorEvent implements ConversationEventOf<'agent_error'> {
  @ApiProperty({ enum: ['agent_error'] }) type!: 'agent_error';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ type: AgentErrorDetail }) error!: AgentErrorDetail;
  @ApiProperty({ type: [String], description: 'The agent run that failed (its id); empty when none ran.' })
  runIds!: string[];
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

/** The events of one agent message's stream. */
const MESSAGE_EVENT_SCHEMAS = {
  generation_tokens: GenerationTokensEvent,
  tool_params: ToolParamsEvent,
  tool_approve_execution: ToolApproveExecutionEvent,
  agent_action_success: AgentActionSuccessEvent,
  tool_error: ToolErrorEvent,
  agent_message_success: AgentMessageSuccessEvent,
  agent_error: AgentErrorEvent,
  agent_generation_cancelled: AgentGenerationCancelledEvent,
};

@ApiExtraModels(...Object.values(EVENT_SCHEMAS), ...Object.values(MESSAGE_EVENT_SCHEMAS))
export class ConversationStreamEvent {}

/** The `oneOf` with its discriminator, as a stream's documented payload. */
function oneOf(schemas: Record<string, new () => unknown>) {
  return {
    oneOf: Object.values(schemas).map((schema) => ({ $ref: getSchemaPath(schema) })),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(
        Object.entries(schemas).map(([type, schema]) => [type, getSchemaPath(schema)]),
      ),
    },
  };
}

export const CONVERSATION_EVENT_SCHEMA = oneOf(EVENT_SCHEMAS);
export const MESSAGE_EVENT_SCHEMA = oneOf(MESSAGE_EVENT_SCHEMAS);
