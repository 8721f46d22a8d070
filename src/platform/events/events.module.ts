import { Global, Module } from '@nestjs/common';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import { ConversationEventFeed } from 'src/platform/events/conversation-event-feed';
import { EventDoorbell } from 'src/platform/events/event-doorbell';
import { SseStreams } from 'src/platform/http/sse-streams';
import { TypeormConversationEventLog } from 'src/platform/events/typeorm-conversation-event-log';

@Global()
@Module({
  providers: [
    { provide: ConversationEventLog, useClass: TypeormConversationEventLog },
    EventDoorbell,
    ConversationEventFeed,
    SseStreams,
  ],
  exports: [ConversationEventLog, EventDoorbell, ConversationEventFeed, SseStreams],
})
export class EventsModule {}
