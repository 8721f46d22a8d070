/**
 * What other contexts use of runtime: the one file of it they import (docs/architecture.md,
 * the dependency rules). It re-exports only what they use, so it adds no import cycle.
 */
export { AnswerSink } from 'src/modules/runtime/application/ports/answer-sink';
export type {
  ActionTarget,
  AnswerOutcome,
  AnswerTarget,
  ConversationIds,
  PostedMessage,
  RunAnswer,
  RunConversation,
  TokensClassification,
} from 'src/modules/runtime/application/ports/answer-sink';
export { ConversationAccess } from 'src/modules/runtime/application/ports/conversation-access';
export type { FoundMessage } from 'src/modules/runtime/application/ports/conversation-access';
export { ConversationHistory } from 'src/modules/runtime/application/ports/conversation-history';
export type { HistoryEntry } from 'src/modules/runtime/application/ports/conversation-history';
export { RunUsageTotals } from 'src/modules/runtime/application/ports/run-usage-totals';
export { WorkspaceTokenBudget } from 'src/modules/runtime/application/ports/workspace-token-budget';
export { RunActionsReader } from 'src/modules/runtime/application/run-actions.reader';
export { ToolCallApprovalsService } from 'src/modules/runtime/application/tool-call-approvals.service';
export type { RunAction } from 'src/modules/runtime/domain/run-action';
export { RuntimeConfig } from 'src/modules/runtime/runtime.config';
export { RuntimeModule } from 'src/modules/runtime/runtime.module';
