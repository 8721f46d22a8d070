import { Module } from '@nestjs/common';
import { AgentsModule } from 'src/modules/agents/agents.api';
import { IdentityModule } from 'src/modules/identity/identity.api';
import { AgentMessagesService } from 'src/modules/conversations/application/agent-messages.service';
import { GenerationTokensWriter } from 'src/modules/conversations/application/generation-tokens.writer';
import { AnswerEffectsService } from 'src/modules/conversations/application/answer-effects.service';
import { AgentUsageService } from 'src/modules/conversations/application/agent-usage.service';
import { ContentFragmentsService } from 'src/modules/conversations/application/content-fragments.service';
import { ConversationDeletionService } from 'src/modules/conversations/application/conversation-deletion.service';
import { ConversationDetailsLoader } from 'src/modules/conversations/application/conversation-details.loader';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { ForksService } from 'src/modules/conversations/application/forks.service';
import { MessageWriter } from 'src/modules/conversations/application/message-writer.service';
import { MessageVersionsService } from 'src/modules/conversations/application/message-versions.service';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { ParticipantsService } from 'src/modules/conversations/application/participants.service';
import { PublicConversationsService } from 'src/modules/conversations/application/public-conversations.service';
import { SystemMessagesService } from 'src/modules/conversations/application/system-messages.service';
import { MessageViews } from 'src/modules/conversations/application/message-views.loader';
import { AgentUsageReadModel } from 'src/modules/conversations/application/ports/agent-usage.read-model';
import { ContentFragmentRepository } from 'src/modules/conversations/application/ports/content-fragment.repository';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import { AgentActionsController } from 'src/modules/conversations/http/agent-actions.controller';
import { ContentFragmentsController } from 'src/modules/conversations/http/content-fragments.controller';
import { ConversationEventsController } from 'src/modules/conversations/http/conversation-events.controller';
import { EventStreamsHandler } from 'src/modules/conversations/http/event-streams.handler';
import { ConversationsController } from 'src/modules/conversations/http/conversations.controller';
import { ForksController } from 'src/modules/conversations/http/forks.controller';
import { MessageCancellationController } from 'src/modules/conversations/http/message-cancellation.controller';
import { MessagesController } from 'src/modules/conversations/http/messages.controller';
import { ParticipantsController } from 'src/modules/conversations/http/participants.controller';
import { ReactionsController } from 'src/modules/conversations/http/reactions.controller';
import { TypeormAgentUsageReadModel } from 'src/modules/conversations/infrastructure/typeorm-agent-usage.read-model';
import { TypeormContentFragmentRepository } from 'src/modules/conversations/infrastructure/typeorm-content-fragment.repository';
import { TypeormConversationRepository } from 'src/modules/conversations/infrastructure/typeorm-conversation.repository';
import { TypeormMessageRepository } from 'src/modules/conversations/infrastructure/typeorm-message.repository';

@Module({
  imports: [IdentityModule, AgentsModule],
  controllers: [
    ConversationsController,
    ParticipantsController,
    MessagesController,
    ReactionsController,
    ForksController,
    ContentFragmentsController,
    ConversationEventsController,
    AgentActionsController,
    MessageCancellationController,
  ],
  providers: [
    ConversationsService,
    MessagesService,
    ForksService,
    SystemMessagesService,
    MessageWriter,
    ContentFragmentsService,
    AgentMessagesService,
    GenerationTokensWriter,
    AnswerEffectsService,
    ConversationDetailsLoader,
    MessageViews,
    AgentUsageService,
    MessageVersionsService,
    ConversationDeletionService,
    ParticipantsService,
    PublicConversationsService,
    EventStreamsHandler,
    { provide: AgentUsageReadModel, useClass: TypeormAgentUsageReadModel },
    { provide: ConversationRepository, useClass: TypeormConversationRepository },
    { provide: MessageRepository, useClass: TypeormMessageRepository },
    { provide: ContentFragmentRepository, useClass: TypeormContentFragmentRepository },
  ],
  exports: [
    ConversationsService,
    MessagesService,
    SystemMessagesService,
    AgentMessagesService,
    AnswerEffectsService,
    MessageViews,
    AgentUsageService,
    ParticipantsService,
  ],
})
export class ConversationsModule {}
