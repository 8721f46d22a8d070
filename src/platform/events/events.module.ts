import { Global, Module } from '@nestjs/common';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import { TypeormConversationEventLog } from 'src/platform/events/typeorm-conversation-event-log';

@Global()
@Module({
  providers: [{ provide: ConversationEventLog, useClass: TypeormConversationEventLog }],
  exports: [ConversationEventLog],
})
export class EventsModule {}
