import { SseFraming, framedEvent } from 'src/platform/http/sse-stream';
import type {
  ConversationEvent,
  ConversationEventType,
} from 'src/modules/conversations/application/views/conversation-event.view';

/** An agent message's outcome: its own stream on the public family ends after it. */
export const MESSAGE_OUTCOMES: readonly ConversationEventType[] = [
  'agent_message_success',
  'agent_error',
  'agent_generation_cancelled',
];

/**
 * Dust's framing, which its client parses: `data: {"eventId": "<id>", "data": <event>}`. The `id:`
 * line stays: Dust's parser ignores it, and browsers' EventSource resume with it.
 */
function dustBlock(id: bigint, data: object): string {
  return `id: ${id}\ndata: {"eventId":"${id}","data":${JSON.stringify(data)}}\n\n`;
}

/**
 * Dust's high-level client (`agents.streamMessage`, 1.2.8) waits for an approval under the event's
 * former name, `mcp_approve_execution`, with flat fields: it follows each `tool_approve_execution`.
 */
function flatApproval(event: ConversationEvent): object | null {
  if (event.type !== 'tool_approve_execution') return null;
  const { toolName, mcpServerName, agentName } = event.metadata;
  return {
    ...event,
    type: 'mcp_approve_execution',
    toolName,
    serverName: mcpServerName,
    description: `${agentName} asks to run ${toolName} of ${mcpServerName}.`,
    input: event.inputs,
  };
}

/**
 * Dust's high-level client (1.2.8) keeps an `agent_action_success` only when `action.id` is a
 * string, and reads a `tool_error`'s `actionId`, `toolName` and `input` at its top level, where its
 * own schemas type `id` a number and carry neither: on the message stream it reads, an action's
 * `id` is its sId (the id `validateAction` takes) and both events carry the call's `input`.
 */
function forHighLevelClient(event: ConversationEvent): object {
  if (event.type === 'agent_action_success') {
    const { action } = event;
    return { ...event, action: { ...action, id: action.sId, input: action.params } };
  }
  if (event.type === 'tool_error') {
    const { action } = event;
    return { ...event, actionId: action.sId, toolName: action.toolName, input: action.params };
  }
  return event;
}

/** The conversation stream of the public family: each event as Dust frames it. */
export const DUST_CONVERSATION_FRAMING: SseFraming<ConversationEvent> = {
  name: 'dust',
  frame: (id, event) => framedEvent(id, dustBlock(id, event)),
};

/**
 * An agent message's stream of the public family, as Dust's high-level client reads it: actions
 * reshaped, each approval followed by its flat form under the same id, and the end after the outcome.
 */
export const DUST_MESSAGE_FRAMING: SseFraming<ConversationEvent> = {
  name: 'dust-message',
  frame: (id, event) => {
    const approval = flatApproval(event);
    const block = dustBlock(id, forHighLevelClient(event));
    return framedEvent(
      id,
      approval ? block + dustBlock(id, approval) : block,
      MESSAGE_OUTCOMES.includes(event.type),
    );
  },
};

/** Dust's framing of an event on the public family's streams, in the OpenAPI document. */
export const dustEnvelope = (event: object) => ({
  type: 'object',
  required: ['eventId', 'data'],
  properties: { eventId: { type: 'string', example: '1042' }, data: event },
});
