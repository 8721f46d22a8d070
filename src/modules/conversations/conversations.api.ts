/**
 * What other contexts use of conversations: the one file of it they import (docs/architecture.md,
 * the dependency rules). It re-exports only what they use, so it adds no import cycle.
 */
export { renderAction } from 'src/modules/conversations/application/action-views';
export { AgentMessagesService } from 'src/modules/conversations/application/agent-messages.service';
export { AgentUsageService } from 'src/modules/conversations/application/agent-usage.service';
export { AnswerEffectsService } from 'src/modules/conversations/application/answer-effects.service';
export {
  ConversationDeleted,
  MessagePosted,
} from 'src/modules/conversations/application/conversations.events';
export { ConversationsService } from 'src/modules/conversations/application/conversations.service';
export { MessagesService } from 'src/modules/conversations/application/messages.service';
export { ParticipantsService } from 'src/modules/conversations/application/participants.service';
export { ActionApprovalsService } from 'src/modules/conversations/application/ports/action-approvals';
export type { ApprovalAnswer } from 'src/modules/conversations/application/ports/action-approvals';
export { AnswerActions } from 'src/modules/conversations/application/ports/answer-actions';
export { FragmentDocuments } from 'src/modules/conversations/application/ports/fragment-documents';
export type { FragmentDocument } from 'src/modules/conversations/application/ports/fragment-documents';
export { FragmentFiles } from 'src/modules/conversations/application/ports/fragment-files';
export type { FragmentFile } from 'src/modules/conversations/application/ports/fragment-files';
export { RunAllowance } from 'src/modules/conversations/application/ports/run-allowance';
export { ScheduledWakeUps } from 'src/modules/conversations/application/ports/scheduled-wake-ups';
export { SystemMessagesService } from 'src/modules/conversations/application/system-messages.service';
export { ActionView, BlockedActionView } from 'src/modules/conversations/application/views/action.view';
export { WakeUpUpdatedEvent } from 'src/modules/conversations/application/views/conversation-event.view';
export type { ConversationEvent } from 'src/modules/conversations/application/views/conversation-event.view';
export { ConversationsConfig } from 'src/modules/conversations/conversations.config';
export { ConversationsModule } from 'src/modules/conversations/conversations.module';
export type { FragmentInput } from 'src/modules/conversations/domain/content-fragment';
export type { Conversation } from 'src/modules/conversations/domain/conversation';
export { ConversationNotFound, MessageNotFound } from 'src/modules/conversations/domain/conversations.errors';
export type { AgentMessage, Message, UserMessage } from 'src/modules/conversations/domain/message';
