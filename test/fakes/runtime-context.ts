import { McpConfig } from 'src/platform/mcp/mcp.config';
import { ActionApprovalsAdapter } from 'src/composition/action-approvals.adapter';
import { AnswerSinkAdapter } from 'src/composition/answer-sink.adapter';
import { ConversationAccessAdapter } from 'src/composition/conversation-access.adapter';
import { ConversationHistoryAdapter } from 'src/composition/conversation-history.adapter';
import { AgentMessageFinished } from 'src/modules/conversations/application/conversations.events';
import { MemberRemoved } from 'src/modules/identity/application/identity.events';
import { UrgentWork } from 'src/platform/scheduling/urgent-work';
import { ConversationsConfig } from 'src/modules/conversations/conversations.config';
import type { FileAttachmentsService } from 'src/modules/files/application/file-attachments.service';
import { AgentActionsService } from 'src/modules/runtime/application/agent-actions.service';
import { AgentRunsService } from 'src/modules/runtime/application/agent-runs.service';
import { ModelHistoryService } from 'src/modules/runtime/application/model-history.service';
import { RunActionsReader } from 'src/modules/runtime/application/run-actions.reader';
import { RunOutcomesService } from 'src/modules/runtime/application/run-outcomes.service';
import { RunRecoveryService } from 'src/modules/runtime/application/run-recovery.service';
import { RunSlots } from 'src/modules/runtime/application/run-slots';
import { RunTokensService } from 'src/modules/runtime/application/run-tokens';
import type { WorkspaceTokenBudget } from 'src/modules/runtime/application/ports/workspace-token-budget';
import { SubAgentRunsService } from 'src/modules/runtime/application/sub-agent-runs.service';
import { ToolCallApprovalsService } from 'src/modules/runtime/application/tool-call-approvals.service';
import { ToolCallsService } from 'src/modules/runtime/application/tool-calls.service';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';
import { InMemoryAgentRunRepository } from 'test/fakes/agent-run-repository';
import { FakeClock } from 'test/fakes/clock';
import { conversationsContext } from 'test/fakes/conversations-context';
import { ModelScript, ScriptedModel, ScriptedModelProviders } from 'test/fakes/model-providers';
import { FakeTool, FakeToolServer } from 'test/fakes/tool-server';
import { InMemoryUnitOfWork } from 'test/fakes/unit-of-work';

export interface RuntimeContextOptions {
  /** What the model answers; by default, "Done." to everything. */
  model?: ModelScript;
  /** The tools of the `vault` server every run is offered. */
  tools?: FakeTool[];
  /** Settings as environment variables (a short approval timeout). */
  env?: Record<string, string>;
  /** The monthly token budget of each workspace, which model calls reserve against; none by default. */
  monthlyTokens?: WorkspaceTokenBudget['monthlyTokens'];
}

/**
 * The runtime's application services, real, on the in-memory agent runs and the conversations
 * context of `conversationsContext` (whose message views show the runs' calls), one clock and one
 * unit of work for all; a scripted model and a fake tool server stand for the providers. The
 * in-transaction listeners are wired as Nest wires them.
 */
export function runtimeContext(options: RuntimeContextOptions = {}) {
  const clock = new FakeClock();
  const unitOfWork = new InMemoryUnitOfWork();
  const runRepository = new InMemoryAgentRunRepository({ unitOfWork, clock });
  const conversations = conversationsContext({
    clock,
    unitOfWork,
    answerActions: new RunActionsReader(runRepository),
  });
  const { directory, inProcessEvents, log } = conversations;
  // The quickest poll the settings allow: a waiting call sees a clock moved past its deadline at once.
  const config = RuntimeConfig.from({ TOOL_APPROVAL_POLL_MS: '10', ...options.env });
  const mcp = McpConfig.from({});
  // The runtime's ports into conversations, bound to the adapters src/composition binds them to.
  const sink = new AnswerSinkAdapter(conversations.agentMessages, conversations.answerEffects);
  const history = new ConversationHistoryAdapter(conversations.agentMessages, ConversationsConfig.from({}));
  const access = new ConversationAccessAdapter(conversations.conversations, conversations.messages);
  const actions = new AgentActionsService(runRepository, sink, unitOfWork);
  const toolCallApprovals = new ToolCallApprovalsService(
    access,
    sink,
    directory.agents,
    runRepository,
    actions,
    unitOfWork,
    inProcessEvents,
  );
  // Conversations' routes answer calls through it, as src/composition binds it.
  const approvals = new ActionApprovalsAdapter(toolCallApprovals);
  const outcomes = new RunOutcomesService(runRepository, actions, unitOfWork, log);
  inProcessEvents.on(AgentMessageFinished, (finished) => outcomes.endRun(finished));
  inProcessEvents.on(MemberRemoved, (removed) => toolCallApprovals.declineForRemovedMember(removed));
  const recovery = new RunRecoveryService(runRepository, sink, directory.workspaces, directory.agents, log);
  const model = new ScriptedModel(options.model ?? (() => [{ type: 'text', text: 'Done.' }]));
  const models = new ScriptedModelProviders(model);
  const toolServer = new FakeToolServer(options.tools ?? []);
  const toolCalls = new ToolCallsService(actions, config, mcp, clock);
  const slots = new RunSlots(config, new UrgentWork());
  const subAgents = new SubAgentRunsService(directory.agents, toolServer.tools, models, slots, config, mcp);
  const noImages = {
    imageOfFragment: async () => null,
  } satisfies Pick<FileAttachmentsService, 'imageOfFragment'> as unknown as FileAttachmentsService;
  const budgets = { monthlyTokens: options.monthlyTokens ?? (async () => null) };
  const runs = new AgentRunsService(
    sink,
    history,
    actions,
    toolServer.tools,
    toolCalls,
    subAgents,
    runRepository,
    models,
    new ModelHistoryService(noImages, history),
    new RunTokensService(budgets, runRepository, clock),
    unitOfWork,
    config,
    log,
  );
  return {
    ...conversations,
    config,
    runRepository,
    actions,
    approvals,
    outcomes,
    recovery,
    model,
    toolServer,
    toolCalls,
    runs,
  };
}

export type RuntimeContext = ReturnType<typeof runtimeContext>;
