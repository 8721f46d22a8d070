import { bindPort, CrossContextPort } from 'src/platform/ports/cross-context-ports.module';
import { AgentStatistics, ConversationParticipants } from 'src/modules/agents/agents.api';
import {
  ActionApprovalsService,
  AnswerActions,
  FragmentFiles,
  FragmentDocuments,
  ScheduledWakeUps,
  ConversationsModule,
  RunAllowance,
} from 'src/modules/conversations/conversations.api';
import { DataSourcesModule, FragmentDocumentsService } from 'src/modules/data-sources/data-sources.api';
import { FeedbackModule } from 'src/modules/feedback/feedback.api';
import { FileAttachmentsService, FilesModule } from 'src/modules/files/files.api';
import {
  RunActionsReader,
  RuntimeModule,
  WorkspaceTokenBudget,
  RunUsageTotals,
  AnswerSink,
  ConversationAccess,
  ConversationHistory,
} from 'src/modules/runtime/runtime.api';
import { ScheduledWakeUpsReader, WakeUpsModule } from 'src/modules/wakeups/wakeups.api';
import { RunUsageRecords, TokenBudgetService, UsageModule } from 'src/modules/usage/usage.api';
import { AgentStatisticsAdapter } from 'src/composition/agent-statistics.adapter';
import { ConversationParticipantsAdapter } from 'src/composition/conversation-participants.adapter';
import { ActionApprovalsAdapter } from 'src/composition/action-approvals.adapter';
import { AnswerSinkAdapter } from 'src/composition/answer-sink.adapter';
import { ConversationAccessAdapter } from 'src/composition/conversation-access.adapter';
import { ConversationHistoryAdapter } from 'src/composition/conversation-history.adapter';

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
  bindPort(RunUsageRecords, { useExisting: RunUsageTotals }, [RuntimeModule]),
  // Conversations refuse a post that would start a run once the workspace's token budget is spent.
  bindPort(RunAllowance, { useExisting: TokenBudgetService }, [UsageModule]),
  // The runtime reserves each model call's tokens against the budget that usage keeps.
  bindPort(WorkspaceTokenBudget, { useExisting: TokenBudgetService }, [UsageModule]),
];
