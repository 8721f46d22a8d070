import { bindPort, CrossContextPort } from 'src/platform/ports/cross-context-ports.module';
import { AgentStatistics } from 'src/modules/agents/application/ports/agent-statistics.read-model';
import { ConversationParticipants } from 'src/modules/agents/application/ports/conversation-participants.port';
import { ActionApprovalsService } from 'src/modules/conversations/application/action-approvals.service';
import { AnswerActions } from 'src/modules/conversations/application/ports/answer-actions';
import { FragmentFiles } from 'src/modules/conversations/application/ports/fragment-files';
import { FragmentDocuments } from 'src/modules/conversations/application/ports/fragment-documents';
import { DataSourcesModule } from 'src/modules/data-sources/data-sources.module';
import { FragmentDocumentsService } from 'src/modules/data-sources/application/fragment-documents.service';
import { ScheduledWakeUps } from 'src/modules/conversations/application/ports/scheduled-wake-ups';
import { ConversationsModule } from 'src/modules/conversations/conversations.module';
import { FeedbackModule } from 'src/modules/feedback/feedback.module';
import { FileAttachmentsService } from 'src/modules/files/application/file-attachments.service';
import { FilesModule } from 'src/modules/files/files.module';
import { RunActionsReader } from 'src/modules/runtime/application/run-actions.reader';
import { RuntimeModule } from 'src/modules/runtime/runtime.module';
import { ScheduledWakeUpsReader } from 'src/modules/wakeups/application/scheduled-wake-ups.reader';
import { WakeUpsModule } from 'src/modules/wakeups/wakeups.module';
import { RunAllowance } from 'src/modules/conversations/application/ports/run-allowance';
import { WorkspaceTokenBudget } from 'src/modules/runtime/application/ports/workspace-token-budget';
import { TypeormRunUsageRecords } from 'src/modules/runtime/infrastructure/typeorm-run-usage-records';
import { RunUsageRecords } from 'src/modules/usage/application/ports/run-usage-records';
import { TokenBudgetService } from 'src/modules/usage/application/token-budget.service';
import { UsageModule } from 'src/modules/usage/usage.module';
import { AgentStatisticsAdapter } from 'src/composition/agent-statistics.adapter';
import { ConversationParticipantsAdapter } from 'src/composition/conversation-participants.adapter';
import { ActionApprovalsAdapter } from 'src/composition/action-approvals.adapter';
import { AnswerSinkAdapter } from 'src/composition/answer-sink.adapter';
import { ConversationAccessAdapter } from 'src/composition/conversation-access.adapter';
import { ConversationHistoryAdapter } from 'src/composition/conversation-history.adapter';
import { AnswerSink } from 'src/modules/runtime/application/ports/answer-sink';
import { ConversationAccess } from 'src/modules/runtime/application/ports/conversation-access';
import { ConversationHistory } from 'src/modules/runtime/application/ports/conversation-history';

/**
 * Every port that one context declares and a context depending on it answers, in one place. The
 * declaring context never imports the answering one; both are imported here, above them.
 */
export const crossContextPorts: CrossContextPort[] = [
  // Conversations attach the files their content fragments show.
  bindPort(FragmentFiles, { useExisting: FileAttachmentsService }, [FilesModule]),
  // Conversations attach the data source documents their content fragments show.
  bindPort(FragmentDocuments, { useExisting: FragmentDocumentsService }, [DataSourcesModule]),
  // Conversations ask whose wake-up a conversation waits for.
  bindPort(ScheduledWakeUps, { useExisting: ScheduledWakeUpsReader }, [WakeUpsModule]),
  // The agent list shows usage (conversations) and feedback counts (feedback).
  bindPort(AgentStatistics, { useClass: AgentStatisticsAdapter }, [ConversationsModule, FeedbackModule]),
  // Mention suggestions in a conversation put its participants first.
  bindPort(ConversationParticipants, { useClass: ConversationParticipantsAdapter }, [ConversationsModule]),
  // Conversations show the tool calls of answers, which the runtime records.
  bindPort(AnswerActions, { useExisting: RunActionsReader }, [RuntimeModule]),
  // Conversations' routes answer the calls waiting for approval through the runtime, which owns them.
  bindPort(ActionApprovalsService, { useClass: ActionApprovalsAdapter }, [RuntimeModule]),
  // The runtime writes its answers to conversations' agent messages, and what their calls change.
  bindPort(AnswerSink, { useClass: AnswerSinkAdapter }, [ConversationsModule]),
  // The runtime's models read the conversation before the answer (messages, content fragments).
  bindPort(ConversationHistory, { useClass: ConversationHistoryAdapter }, [ConversationsModule]),
  // The runtime's approval routes reach a conversation and its messages with conversations' checks.
  bindPort(ConversationAccess, { useClass: ConversationAccessAdapter }, [ConversationsModule]),
  // Usage reads what runs cost from the runtime, which records them.
  bindPort(RunUsageRecords, { useExisting: TypeormRunUsageRecords }, [RuntimeModule]),
  // Conversations refuse a post that would start a run once the workspace's token budget is spent.
  bindPort(RunAllowance, { useExisting: TokenBudgetService }, [UsageModule]),
  // The runtime reserves each model call's tokens against the budget that usage keeps.
  bindPort(WorkspaceTokenBudget, { useExisting: TokenBudgetService }, [UsageModule]),
];
