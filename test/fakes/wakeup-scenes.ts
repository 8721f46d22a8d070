import type { Caller } from 'src/platform/auth/caller';
import type { UserMessage } from 'src/modules/conversations/conversations.api';
import { wakeUpsContext } from 'test/fakes/wakeups-context';

const MINUTE = 60_000;
/** A Monday, 10:00 in Paris (UTC+1 until the end of March). */
const MONDAY_9_UTC = '2026-03-02T09:00:00.000Z';

/** A workspace with a member who owns a conversation and an agent, and helpers to schedule wake-ups and read what firing did. */
export async function firingScene() {
  const context = wakeUpsContext(MONDAY_9_UTC);
  const { directory } = context;
  const workspace = directory.addWorkspace();
  const owner = directory.addMember(workspace, 'Ada Lovelace');
  const agent = directory.addAgent(workspace, 'helper');
  const newConversation = async (caller: Caller = owner) =>
    (await context.conversations.create(caller, { title: 'Stand-up' })).conversation;
  const conversation = await newConversation();
  const schedule = (
    scheduleConfig: { type: string; fireAt?: number; cron?: string; timezone?: string },
    options: { in?: { sId: string }; agentSId?: string; maxFires?: number } = {},
  ) =>
    context.service.create(owner, (options.in ?? conversation).sId, {
      agentConfigurationId: options.agentSId ?? agent.sId,
      scheduleConfig,
      reason: 'Check the build',
      maxFires: options.maxFires,
    });
  const inMinutes = (minutes: number, options: Parameters<typeof schedule>[1] = {}) =>
    schedule({ type: 'one_shot', fireAt: context.clock.now().getTime() + minutes * MINUTE }, options);
  /** The user messages of a conversation, every version. */
  const posted = (conversationId = conversation.id) =>
    context.messageRepository
      .allIn(conversationId)
      .filter((message): message is UserMessage => message.type === 'user_message');
  const wakeUp = (sId: string) => context.wakeUpRepository.all().find((candidate) => candidate.sId === sId)!;
  const statusEvents = (conversationId = conversation.id) =>
    context.eventLog
      .eventsOfType(conversationId, 'wake_up_updated')
      .map((event) => (event.wakeUp as { status: string }).status);
  return {
    ...context,
    workspace,
    owner,
    agent,
    conversation,
    newConversation,
    schedule,
    inMinutes,
    posted,
    wakeUp,
    statusEvents,
  };
}

const HOUR = 3600_000;

/** A workspace with a conversation's owner, another member, an admin and an agent; `oneShot` schedules a wake-up. */
export async function schedulingScene() {
  const context = wakeUpsContext(MONDAY_9_UTC);
  const { directory, conversations } = context;
  const workspace = directory.addWorkspace();
  const owner = directory.addMember(workspace, 'Ada Lovelace');
  const other = directory.addMember(workspace, 'Grace Hopper');
  const admin = directory.addMember(workspace, 'Alan Turing', 'admin');
  const agent = directory.addAgent(workspace, 'helper');
  const { conversation } = await conversations.create(owner, { title: 'Stand-up' });
  const oneShot = (caller: Caller = owner, inMs = HOUR, sId = conversation.sId) =>
    context.service.create(caller, sId, {
      agentConfigurationId: agent.sId,
      scheduleConfig: { type: 'one_shot', fireAt: context.clock.now().getTime() + inMs },
      reason: 'Check the build',
    });
  const wakeUpEvents = (conversationId = conversation.id) =>
    context.eventLog.eventsOfType(conversationId, 'wake_up_updated').map((event) => event.wakeUp);
  return { ...context, workspace, owner, other, admin, agent, conversation, oneShot, wakeUpEvents };
}
