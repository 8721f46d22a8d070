import type { AnswerAction } from 'src/modules/conversations/application/ports/answer-actions';
import type { ActionView } from 'src/modules/conversations/application/views/action.view';

export function renderAction(action: AnswerAction): ActionView {
  return {
    sId: action.sId,
    id: action.id,
    type: 'tool_action',
    agentMessageId: action.messageId,
    functionCallName: action.functionCallName,
    functionCallId: action.toolCallId,
    mcpServerName: action.mcpServerName,
    mcpServerId: action.mcpServerId,
    internalMCPServerName: action.internalMcpServerName,
    toolName: action.toolName,
    params: action.params,
    status: action.status,
    output: action.output,
    step: action.step,
    createdAt: action.createdAt.getTime(),
    updatedAt: action.updatedAt.getTime(),
    executionDurationMs: action.executionDurationMs,
    citationsAllocated: 0,
    generatedFiles: [],
    displayLabels: null,
  };
}
