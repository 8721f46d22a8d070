import type {
  AnswerAction,
  AnswerActionStatus,
} from 'src/modules/conversations/application/ports/answer-actions';

/**
 * One tool call of an agent message, as clients see it (in the message and in its events); `type`
 * and `agentMessageId` are those of Dust's tool actions.
 */
export interface ActionView {
  sId: string;
  id: number;
  type: 'tool_action';
  /** Row id of the agent message (its `agentMessageId`). */
  agentMessageId: number;
  /** The function the model called: `<server>__<tool>`. */
  functionCallName: string;
  mcpServerName: string;
  toolName: string;
  params: Record<string, unknown>;
  status: AnswerActionStatus;
  output: AnswerAction['output'];
  /** The run's step (0-based) whose model answer asked for the call. */
  step: number;
  createdAt: number;
  executionDurationMs: number | null;
}

export function renderAction(action: AnswerAction): ActionView {
  return {
    sId: action.sId,
    id: action.id,
    type: 'tool_action',
    agentMessageId: action.messageId,
    functionCallName: action.functionCallName,
    mcpServerName: action.mcpServerName,
    toolName: action.toolName,
    params: action.params,
    status: action.status,
    output: action.output,
    step: action.step,
    createdAt: action.createdAt.getTime(),
    executionDurationMs: action.executionDurationMs,
  };
}
