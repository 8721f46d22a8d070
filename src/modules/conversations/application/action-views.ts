import type { ActionView } from 'src/modules/conversations/application/views/action.view';
import type { AgentAction } from 'src/modules/conversations/domain/action';

export function renderAction(action: AgentAction): ActionView {
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
