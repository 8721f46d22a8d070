import { Metrics } from 'src/platform/observability/metrics';
import { ConversationDeleted } from 'src/modules/conversations/application/conversations.events';
import { MemberRemoved } from 'src/modules/identity/application/identity.events';
import { ScheduledWakeUpsReader } from 'src/modules/wakeups/application/scheduled-wake-ups.reader';
import { WakeUpFiringService } from 'src/modules/wakeups/application/wakeup-firing.service';
import { WakeUpsService } from 'src/modules/wakeups/application/wakeups.service';
import { FakeClock } from 'test/fakes/clock';
import { conversationsContext } from 'test/fakes/conversations-context';
import { InMemoryUnitOfWork } from 'test/fakes/unit-of-work';
import { InMemoryWakeUpRepository } from 'test/fakes/wakeup-repository';

/**
 * The wake-ups context's services, real, on the in-memory wake-ups table and the conversations
 * context of `conversationsContext` (whose posts see the scheduled wake-ups), one clock for all.
 */
export function wakeUpsContext(start?: Date | string) {
  const clock = new FakeClock(start);
  const unitOfWork = new InMemoryUnitOfWork();
  const wakeUpRepository = new InMemoryWakeUpRepository({
    unitOfWork,
    clock,
    conversationSIdOf: (workspaceId, id) => conversations.conversationRepository.row(workspaceId, id)?.sId,
  });
  const conversations = conversationsContext({
    clock,
    unitOfWork,
    scheduledWakeUps: new ScheduledWakeUpsReader(wakeUpRepository),
  });
  const { directory, eventLog, inProcessEvents, log } = conversations;
  const service = new WakeUpsService(
    wakeUpRepository,
    conversations.conversations,
    directory.agents,
    directory.workspaces,
    eventLog,
    unitOfWork,
    clock,
    inProcessEvents,
  );
  // As Nest wires the service's listeners of in-transaction events.
  inProcessEvents.on(MemberRemoved, (removed) => service.cancelOwnedBy(removed));
  inProcessEvents.on(ConversationDeleted, (deleted) => service.cancelInDeleted(deleted));
  const newFiringProcess = () =>
    new WakeUpFiringService(
      wakeUpRepository,
      service,
      conversations.conversations,
      conversations.systemMessages,
      directory.workspaces,
      unitOfWork,
      clock,
      log,
      new Metrics(),
    );
  return {
    ...conversations,
    wakeUpRepository,
    service,
    firing: newFiringProcess(),
    /** The firing service of another process: the same tables, its own state. */
    newFiringProcess,
  };
}

export type WakeUpsContext = ReturnType<typeof wakeUpsContext>;
