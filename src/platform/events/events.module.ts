import { Global, Module } from '@nestjs/common';
import { AccessChanges } from 'src/platform/events/access-changes';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import { ConversationEventFeed } from 'src/platform/events/conversation-event-feed';
import { EventDoorbell } from 'src/platform/events/event-doorbell';
import { EventEmitterInProcessEvents } from 'src/platform/events/event-emitter-in-process-events';
import { InProcessEvents } from 'src/platform/events/in-process-events';
import { PgAccessChanges } from 'src/platform/events/pg-access-changes';
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
    { provide: AccessChanges, useClass: PgAccessChanges },
  ],
  exports: [
    ConversationEventLog,
    EventDoorbell,
    ConversationEventFeed,
    SseStreams,
    InProcessEvents,
    AccessChanges,
  ],
})
export class EventsModule {}
