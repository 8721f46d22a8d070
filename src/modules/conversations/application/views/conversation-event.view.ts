import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { WakeUpView } from 'src/kernel/views/wake-up.view';
import { ActionView } from 'src/modules/conversations/application/views/action.view';
import { ContentFragmentView } from 'src/modules/conversations/application/views/content-fragment.view';
import { AgentMessageView, UserMessageView } from 'src/modules/conversations/application/views/message.view';

// The events of a conversation's log, as written and as its streams send them (the specification
// fixes these shapes); docs/decisions/conversations.md, "The event log and the streams". The runtime
// writes its own through its ports, wakeups its wake-ups.

const AGENT_MESSAGE = { allOf: [{ $ref: getSchemaPath(AgentMessageView) }] };
const ACTION = { allOf: [{ $ref: getSchemaPath(ActionView) }] };

/** What a `generation_tokens` chunk is: the answer, or the model's reasoning when a provider streams it. */
export type TokensClassification = 'tokens' | 'chain_of_thought';

export class UserMessageNewEvent {
  @ApiProperty({ enum: ['user_message_new'] }) type!: 'user_message_new';
  @ApiProperty() created!: number;
  @ApiProperty() messageId!: string;
  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(UserMessageView) }, { $ref: getSchemaPath(ContentFragmentView) }],
    description: 'A user message, or a content fragment put in the conversation (type content_fragment)',
  })
  message!: UserMessageView | ContentFragmentView;
}

export class AgentMessageNewEvent {
  @ApiProperty({ enum: ['agent_message_new'] }) type!: 'agent_message_new';
  @ApiProperty() created!: number;
  @ApiProperty({ description: 'sId of the agent' }) configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty(AGENT_MESSAGE) message!: AgentMessageView;
}

export class GenerationTokensEvent {
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

export class AgentMessageDoneEvent {
  @ApiProperty({ enum: ['agent_message_done'] }) type!: 'agent_message_done';
  @ApiProperty() created!: number;
  @ApiProperty() conversationId!: string;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ enum: ['success', 'error'] }) status!: 'success' | 'error';
}

export class AgentGenerationCancelledEvent {
  @ApiProperty({ enum: ['agent_generation_cancelled'] }) type!: 'agent_generation_cancelled';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
}

export class ConversationTitleEvent {
  @ApiProperty({ enum: ['conversation_title'] }) type!: 'conversation_title';
  @ApiProperty() created!: number;
  @ApiProperty() title!: string;
}

/** A wake-up's change, written by wakeups; the wake-up's shape is the kernel's. */
export class WakeUpUpdatedEvent {
  @ApiProperty({ enum: ['wake_up_updated'] }) type!: 'wake_up_updated';
  @ApiProperty() created!: number;
  @ApiProperty() conversationId!: string;
  @ApiProperty({ allOf: [{ $ref: getSchemaPath(WakeUpView) }] }) wakeUp!: WakeUpView;
}

export class AgentErrorDetail {
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

export class ToolParamsEvent {
  @ApiProperty({ enum: ['tool_params'] }) type!: 'tool_params';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ ...ACTION, description: 'The call and its arguments, as recorded.' }) action!: ActionView;
}

export class ToolApprovalMetadata {
  @ApiProperty() toolName!: string;
  @ApiProperty() mcpServerName!: string;
  @ApiProperty() agentName!: string;
}

export class ToolApproveExecutionEvent {
  @ApiProperty({ enum: ['tool_approve_execution'] }) type!: 'tool_approve_execution';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() conversationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ description: 'Answer with validate-action and this id.' }) actionId!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) inputs!: Record<string, unknown>;
  @ApiProperty({ type: ToolApprovalMetadata }) metadata!: ToolApprovalMetadata;
  @ApiProperty(ACTION) action!: ActionView;
}

export class AgentActionSuccessEvent {
  @ApiProperty({ enum: ['agent_action_success'] }) type!: 'agent_action_success';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty(ACTION) action!: ActionView;
}

export class ToolErrorEvent {
  @ApiProperty({ enum: ['tool_error'] }) type!: 'tool_error';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({
    ...ACTION,
    description: 'The call, failed or denied; its output is what the model was told.',
  })
  action!: ActionView;
  @ApiProperty({ type: AgentErrorDetail }) error!: AgentErrorDetail;
}

export class AgentMessageSuccessEvent {
  @ApiProperty({ enum: ['agent_message_success'] }) type!: 'agent_message_success';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty(AGENT_MESSAGE) message!: AgentMessageView;
  @ApiProperty({
    type: [String],
    description: 'The agent run that answered (its id), as Dust lists its runs.',
  })
  runIds!: string[];
}

export class AgentErrorEvent {
  @ApiProperty({ enum: ['agent_error'] }) type!: 'agent_error';
  @ApiProperty() created!: number;
  @ApiProperty() configurationId!: string;
  @ApiProperty() messageId!: string;
  @ApiProperty({ type: AgentErrorDetail }) error!: AgentErrorDetail;
  @ApiProperty({ type: [String], description: 'The agent run that failed (its id); empty when none ran.' })
  runIds!: string[];
}

/** Any event of the log: a union discriminated by `type`, so a misspelt or missing field does not compile. */
export type ConversationEvent =
  | UserMessageNewEvent
  | AgentMessageNewEvent
  | GenerationTokensEvent
  | AgentMessageDoneEvent
  | AgentGenerationCancelledEvent
  | ConversationTitleEvent
  | WakeUpUpdatedEvent
  | ToolParamsEvent
  | ToolApproveExecutionEvent
  | AgentActionSuccessEvent
  | ToolErrorEvent
  | AgentMessageSuccessEvent
  | AgentErrorEvent;

export type ConversationEventType = ConversationEvent['type'];

/** Each type of a stream with the class that documents it. */
type EventClasses = { [T in ConversationEventType]?: new () => Extract<ConversationEvent, { type: T }> };

/** What the conversation stream (endpoint 7) sends: the specification's union of seven types. */
export const CONVERSATION_STREAM_EVENTS = {
  user_message_new: UserMessageNewEvent,
  agent_message_new: AgentMessageNewEvent,
  generation_tokens: GenerationTokensEvent,
  agent_message_done: AgentMessageDoneEvent,
  agent_generation_cancelled: AgentGenerationCancelledEvent,
  conversation_title: ConversationTitleEvent,
  wake_up_updated: WakeUpUpdatedEvent,
} satisfies EventClasses;

/** What one agent message's stream sends: its tokens, tool calls, approvals and outcome. */
export const MESSAGE_STREAM_EVENTS = {
  generation_tokens: GenerationTokensEvent,
  tool_params: ToolParamsEvent,
  tool_approve_execution: ToolApproveExecutionEvent,
  agent_action_success: AgentActionSuccessEvent,
  tool_error: ToolErrorEvent,
  agent_message_success: AgentMessageSuccessEvent,
  agent_error: AgentErrorEvent,
  agent_generation_cancelled: AgentGenerationCancelledEvent,
} satisfies EventClasses;

const typesOf = (events: EventClasses) => Object.keys(events) as ConversationEventType[];
export const CONVERSATION_STREAM_TYPES: readonly ConversationEventType[] =
  typesOf(CONVERSATION_STREAM_EVENTS);
export const MESSAGE_STREAM_TYPES: readonly ConversationEventType[] = typesOf(MESSAGE_STREAM_EVENTS);

/** The document's name for what the event streams carry (each stream documents its own union). */
export class ConversationStreamEvent {}

/** A stream's documented payload: the `oneOf` of its events' classes, with its discriminator. */
export function eventUnionSchema(events: EventClasses) {
  return {
    oneOf: Object.values(events).map((event) => ({ $ref: getSchemaPath(event) })),
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(
        Object.entries(events).map(([type, event]) => [type, getSchemaPath(event)]),
      ),
    },
  };
}
