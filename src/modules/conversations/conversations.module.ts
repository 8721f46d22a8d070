import { Module } from '@nestjs/common';
import { Clock, SystemClock } from 'src/platform/clock/clock';
import { AgentsModule } from 'src/modules/agents/agents.module';
import { IdentityModule } from 'src/modules/identity/identity.module';
import { AgentMessagesService } from 'src/modules/conversations/application/agent-messages.service';
import { ConversationDetailsLoader } from 'src/modules/conversations/application/conversation-details.loader';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { ForksService } from 'src/modules/conversations/application/forks.service';
import { MessageWriter } from 'src/modules/conversations/application/message-writer.service';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { SystemMessagesService } from 'src/modules/conversations/application/system-messages.service';
import { MessageViews } from 'src/modules/conversations/application/message-views.loader';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import { ConversationEventsController } from 'src/modules/conversations/http/conversation-events.controller';
import { ConversationsController } from 'src/modules/conversations/http/conversations.controller';
import { TypeormConversationRepository } from 'src/modules/conversations/infrastructure/typeorm-conversation.repository';
import { TypeormMessageRepository } from 'src/modules/conversations/infrastructure/typeorm-message.repository';

@Module({
  imports: [IdentityModule, AgentsModule],
  controllers: [ConversationsController, ConversationEventsController],
  providers: [
    ConversationsService,
    MessagesService,
    ForksService,
    SystemMessagesService,
    MessageWriter,
    AgentMessagesService,
    ConversationDetailsLoader,
    MessageViews,
    { provide: Clock, useClass: SystemClock },
    { provide: ConversationRepository, useClass: TypeormConversationRepository },
    { provide: MessageRepository, useClass: TypeormMessageRepository },
  ],
  exports: [ConversationsService, MessagesService, SystemMessagesService, AgentMessagesService],
})
export class ConversationsModule {}
