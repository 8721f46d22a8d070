import { Global, Module } from '@nestjs/common';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import { ConversationEventFeed } from 'src/platform/events/conversation-event-feed';
import { EventDoorbell } from 'src/platform/events/event-doorbell';
import { EventEmitterInProcessEvents } from 'src/platform/events/event-emitter-in-process-events';
import { InProcessEvents } from 'src/platform/events/in-process-events';
import { SseStreams } from 'src/platform/http/sse-streams';
import { TypeormConversationEventLog } from 'src/platform/events/typeorm-conversation-event-log';

@Global()
@Module({
  providers: [
    { provide: ConversationEventLog, useClass: TypeormConversationEventLog },
    EventDoorbell,
    ConversationEventFeed,
    SseStreams,
    { provide: InProcessEvents, useClass: EventEmitterInProcessEvents },
  ],
  exports: [ConversationEventLog, EventDoorbell, ConversationEventFeed, SseStreams, InProcessEvents],
})
export class EventsModule {}
