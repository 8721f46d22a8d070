import { RunAllowance } from 'src/modules/conversations/application/ports/run-allowance';
import { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import {
  AgentAnswer,
  AgentMessagesService,
} from 'src/modules/conversations/application/agent-messages.service';
import { AnswerEffectsService } from 'src/modules/conversations/application/answer-effects.service';
import { GenerationTokensWriter } from 'src/modules/conversations/application/generation-tokens.writer';
import { ContentFragmentsService } from 'src/modules/conversations/application/content-fragments.service';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { MessageInput, MessageWriter } from 'src/modules/conversations/application/message-writer.service';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { AnswerAction, AnswerActions } from 'src/modules/conversations/application/ports/answer-actions';
import type { ScheduledWakeUps } from 'src/modules/conversations/application/ports/scheduled-wake-ups';
import { SystemMessagesService } from 'src/modules/conversations/application/system-messages.service';
import type { Mention } from 'src/modules/conversations/domain/message';
import { ConversationsConfig } from 'src/modules/conversations/conversations.config';
import { RecordingAccessChanges } from 'test/fakes/access-changes';
import { FakeClock } from 'test/fakes/clock';
import { InMemoryContentFragmentRepository } from 'test/fakes/content-fragment-repository';
import { InMemoryConversationEventLog } from 'test/fakes/conversation-event-log';
import type { ConversationEvent } from 'src/modules/conversations/application/views/conversation-event.view';
import { InMemoryConversationRepository } from 'test/fakes/conversation-repository';
import { FakeDirectory } from 'test/fakes/directory';
import { InMemoryFragmentDocuments } from 'test/fakes/fragment-documents';
import { InMemoryFragmentFiles } from 'test/fakes/fragment-files';
import { RecordingInProcessEvents } from 'test/fakes/in-process-events';
import { InMemoryMessageRepository } from 'test/fakes/message-repository';
import { RecordingOperatorLog } from 'test/fakes/operator-log';
import { InMemoryScheduledWakeUps } from 'test/fakes/scheduled-wake-ups';
import { InMemoryUnitOfWork } from 'test/fakes/unit-of-work';

export interface ConversationsContextOptions {
  clock?: FakeClock;
  unitOfWork?: InMemoryUnitOfWork;
  directory?: FakeDirectory;
  scheduledWakeUps?: ScheduledWakeUps;
  /** The tool calls of answers, as the runtime records them; none by default. */
  answerActions?: AnswerActions;
  /** Whether the workspace may start runs (its token budget); always by default. */
  runAllowance?: RunAllowance;
}

/** No token budget: every workspace may start runs. */
class UnlimitedRuns extends RunAllowance {
  async assertMayStartRuns(): Promise<void> {}
}

/** Answers without tool calls: what conversations see when no runtime runs them. */
export class NoAnswerActions extends AnswerActions {
  async listForMessages(): Promise<AnswerAction[]> {
    return [];
  }
}

/**
 * The conversations context's application services, real, on the in-memory fakes of their ports
 * and of the contexts they call, sharing one clock and one unit of work. The tool calls of answers
 * are the runtime's: none unless `answerActions` gives them.
 */
export function conversationsContext(options: ConversationsContextOptions = {}) {
  const clock = options.clock ?? new FakeClock();
  const unitOfWork = options.unitOfWork ?? new InMemoryUnitOfWork();
  const directory = options.directory ?? new FakeDirectory();
  const log = new RecordingOperatorLog();
  const eventLog = new InMemoryConversationEventLog<ConversationEvent>({ unitOfWork, clock });
  const inProcessEvents = new RecordingInProcessEvents(unitOfWork);
  const accessChanges = new RecordingAccessChanges(unitOfWork);
  const messageRepository = new InMemoryMessageRepository({ unitOfWork, clock });
  const conversationRepository = new InMemoryConversationRepository({
    unitOfWork,
    clock,
    messages: messageRepository,
    spaceSIdOf: (workspaceId, spaceId) => directory.spaceSIdOf(workspaceId, spaceId),
  });
  const fragmentRepository = new InMemoryContentFragmentRepository({ unitOfWork, clock });
  const fragmentFiles = new InMemoryFragmentFiles(unitOfWork);
  const fragmentDocuments = new InMemoryFragmentDocuments();
  const scheduledWakeUps = options.scheduledWakeUps ?? new InMemoryScheduledWakeUps();
  const writer = new MessageWriter(
    conversationRepository,
    messageRepository,
    eventLog,
    directory.agents,
    directory.workspaces,
    inProcessEvents,
    accessChanges,
    unitOfWork,
    clock,
    options.runAllowance ?? new UnlimitedRuns(),
  );
  const fragments = new ContentFragmentsService(
    conversationRepository,
    fragmentRepository,
    fragmentFiles,
    fragmentDocuments,
    eventLog,
    unitOfWork,
  );
  const conversations = new ConversationsService(
    conversationRepository,
    writer,
    fragments,
    directory.spaces,
    directory.apiKeys,
    unitOfWork,
    clock,
  );
  const messages = new MessagesService(
    conversations,
    messageRepository,
    writer,
    fragments,
    scheduledWakeUps,
    unitOfWork,
  );
  const agentMessages = new AgentMessagesService(
    conversations,
    messages,
    conversationRepository,
    messageRepository,
    options.answerActions ?? new NoAnswerActions(),
    fragmentRepository,
    ConversationsConfig.from({}),
    eventLog,
    unitOfWork,
    inProcessEvents,
    clock,
    new GenerationTokensWriter(messageRepository, eventLog, unitOfWork, clock),
  );
  const answerEffects = new AnswerEffectsService(conversationRepository, accessChanges, eventLog, clock);
  const systemMessages = new SystemMessagesService(
    conversationRepository,
    writer,
    directory.spaces,
    unitOfWork,
  );

  return {
    clock,
    unitOfWork,
    directory,
    log,
    eventLog,
    inProcessEvents,
    accessChanges,
    messageRepository,
    conversationRepository,
    fragmentRepository,
    fragmentFiles,
    fragmentDocuments,
    scheduledWakeUps,
    writer,
    fragments,
    conversations,
    messages,
    agentMessages,
    answerEffects,
    systemMessages,
    /** What the runtime does once a post commits: the answers of its newly mentioned agents start. */
    startAnswers(posted?: MessagePosted): Promise<AgentAnswer[]> {
      const latest = posted ?? inProcessEvents.committedOf(MessagePosted).at(-1);
      if (!latest) throw new Error('No message was posted.');
      return agentMessages.start(latest);
    },
    /** A run ends with its answer. */
    async succeed(run: AgentAnswer, content: string): Promise<void> {
      await agentMessages.finish(run, { status: 'succeeded', content, error: null });
    },
  };
}

export type ConversationsContext = ReturnType<typeof conversationsContext>;

/** A user message as a client posts it: its content, mentions and the author's context. */
export function messageInput(
  content: string,
  mentions: Mention[] = [],
): MessageInput & { context: { username: string } } {
  return {
    content,
    mentions,
    context: {
      username: 'ada',
      timezone: 'Europe/Paris',
      fullName: null,
      email: null,
      profilePictureUrl: null,
    },
  };
}

/** Mentions of these agents. */
export function mentionsOf(...agents: { sId: string }[]): Mention[] {
  return agents.map((agent) => ({ configurationId: agent.sId }));
}
