import { describe, expect, it } from '@jest/globals';
import type { Caller } from 'src/platform/auth/caller';
import { ConversationDeleted } from 'src/modules/conversations/application/conversations.events';
import { MemberRemoved } from 'src/modules/identity/application/identity.events';
import { WakeUpScheduled } from 'src/modules/wakeups/application/wakeups.events';
import { CRON_MAX_FIRES } from 'src/modules/wakeups/domain/wakeup';
import { messageInput } from 'test/fakes/conversations-context';
import { schedulingScene as setUp } from 'test/fakes/wakeup-scenes';

const HOUR = 3600_000;

describe('WakeUpsService', () => {
  it('schedules a one-shot wake-up, announces it in the conversation and to the scheduler once committed', async () => {
    const { clock, oneShot, owner, agent, conversation, wakeUpRepository, wakeUpEvents, inProcessEvents } =
      await setUp();
    const fireAt = new Date(clock.now().getTime() + HOUR);

    const created = await oneShot();

    expect(created).toMatchObject({
      conversationSId: conversation.sId,
      ownerSId: owner.userSId,
      wakeUp: {
        sId: expect.stringMatching(/^wku_/),
        agentSId: agent.sId,
        schedule: { type: 'one_shot', fireAt },
        reason: 'Check the build',
        status: 'scheduled',
        fireCount: 0,
        maxFires: 1,
        nextFireAt: fireAt,
        ownerId: owner.userId,
      },
    });
    expect(wakeUpRepository.all()).toEqual([created.wakeUp]);
    expect(wakeUpEvents()).toEqual([
      expect.objectContaining({
        sId: created.wakeUp.sId,
        status: 'scheduled',
        owner: owner.userSId,
        conversationId: conversation.sId,
        scheduleConfig: { type: 'one_shot', fireAt: fireAt.getTime() },
      }),
    ]);
    expect(inProcessEvents.committedOf(WakeUpScheduled)).toEqual([{ dueAt: fireAt }]);
  });

  it('plans a cron wake-up from its next time in its timezone, with at most 32 firings by default', async () => {
    const { service, owner, agent, conversation } = await setUp();
    const schedule = { type: 'cron', cron: '0 9 * * 1-5', timezone: 'Europe/Paris' };

    const created = await service.create(owner, conversation.sId, {
      agentConfigurationId: agent.sId,
      scheduleConfig: schedule,
      reason: 'Daily digest',
    });

    // Monday 10:00 in Paris: the next weekday 09:00 there is Tuesday, 08:00 UTC.
    expect(created.wakeUp).toMatchObject({
      schedule: { type: 'cron', cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
      nextFireAt: new Date('2026-03-03T08:00:00.000Z'),
      maxFires: CRON_MAX_FIRES,
    });
  });

  it('refuses a bad schedule, agent or conversation with its error, and writes nor announces anything', async () => {
    const context = await setUp();
    const { service, owner, other, agent, conversation, directory, workspace, clock } = context;
    const archived = directory.addAgent(workspace, 'retired', { status: 'archived' });
    const secret = directory.addSpace(workspace, 'Finance', [owner]);
    const { conversation: restricted } = await context.conversations.create(owner, {
      spaceId: secret.sId,
    });
    const inOneHour = { type: 'one_shot', fireAt: clock.now().getTime() + HOUR };
    const attempt = (caller: Caller, sId: string, input: Partial<Parameters<typeof service.create>[2]>) =>
      service.create(caller, sId, {
        agentConfigurationId: agent.sId,
        scheduleConfig: inOneHour,
        reason: 'x',
        ...input,
      });

    const refusals: [() => Promise<unknown>, string][] = [
      [
        () =>
          attempt(owner, conversation.sId, {
            scheduleConfig: { type: 'one_shot', fireAt: clock.now().getTime() },
          }),
        'invalid_request_error',
      ],
      [
        () =>
          attempt(owner, conversation.sId, {
            scheduleConfig: { type: 'cron', cron: '*/2 * * * *', timezone: 'UTC' },
          }),
        'invalid_request_error',
      ],
      [() => attempt(owner, conversation.sId, { maxFires: 3 }), 'invalid_request_error'],
      [
        () => attempt(owner, conversation.sId, { agentConfigurationId: 'nobody0000' }),
        'invalid_request_error',
      ],
      [
        () => attempt(owner, conversation.sId, { agentConfigurationId: archived.sId }),
        'agent_configuration_not_found',
      ],
      [() => attempt(owner, 'unknown000', {}), 'conversation_not_found'],
      [() => attempt(other, restricted.sId, {}), 'conversation_access_restricted'],
    ];
    for (const [refused, code] of refusals) await expect(refused()).rejects.toMatchObject({ code });

    expect(context.wakeUpRepository.all()).toEqual([]);
    expect(context.wakeUpEvents()).toEqual([]);
    expect(context.wakeUpEvents(restricted.id)).toEqual([]);
    expect(context.inProcessEvents.committedOf(WakeUpScheduled)).toEqual([]);
  });

  it("does not find another workspace's conversation", async () => {
    const { directory, oneShot, conversation, wakeUpRepository } = await setUp();
    const stranger = directory.addMember(directory.addWorkspace('Elsewhere'), 'Eve Stranger');

    await expect(oneShot(stranger, HOUR, conversation.sId)).rejects.toMatchObject({
      code: 'conversation_not_found',
    });
    expect(wakeUpRepository.all()).toEqual([]);
  });

  it('allows one scheduled wake-up per conversation (409), and another once it is cancelled', async () => {
    const { oneShot, service, owner, conversation, wakeUpRepository, wakeUpEvents, inProcessEvents } =
      await setUp();
    const first = await oneShot();

    await expect(oneShot(owner, 2 * HOUR)).rejects.toMatchObject({
      code: 'refused_in_current_state',
    });
    expect(wakeUpRepository.all()).toEqual([first.wakeUp]);
    expect(wakeUpEvents()).toHaveLength(1);
    expect(inProcessEvents.committedOf(WakeUpScheduled)).toHaveLength(1);

    await service.cancel(owner, conversation.sId, first.wakeUp.sId);
    const second = await oneShot(owner, 2 * HOUR);
    expect(wakeUpRepository.all().map((wakeUp) => [wakeUp.sId, wakeUp.status])).toEqual([
      [first.wakeUp.sId, 'cancelled'],
      [second.wakeUp.sId, 'scheduled'],
    ]);
  });

  it('tells the scheduler nothing when the creation does not commit', async () => {
    const { oneShot, unitOfWork, wakeUpRepository, wakeUpEvents, inProcessEvents } = await setUp();
    unitOfWork.failNextCommit();

    await expect(oneShot()).rejects.toThrow('commit failed');

    expect(wakeUpRepository.all()).toEqual([]);
    expect(wakeUpEvents()).toEqual([]);
    expect(inProcessEvents.committedOf(WakeUpScheduled)).toEqual([]);
  });

  it("lists a conversation's wake-ups in creation order, with their owners", async () => {
    const { oneShot, service, owner, admin, other, conversation } = await setUp();
    const first = await oneShot(owner);
    await service.cancel(owner, conversation.sId, first.wakeUp.sId);
    const second = await oneShot(admin);

    const listed = await service.list(other, conversation.sId);

    expect(listed.map((details) => [details.wakeUp.sId, details.wakeUp.status, details.ownerSId])).toEqual([
      [first.wakeUp.sId, 'cancelled', owner.userSId],
      [second.wakeUp.sId, 'scheduled', admin.userSId],
    ]);
  });

  it('lets the owner cancel, announcing the cancellation', async () => {
    const { oneShot, service, owner, conversation, wakeUpRepository, wakeUpEvents } = await setUp();
    const { wakeUp } = await oneShot();

    const cancelled = await service.cancel(owner, conversation.sId, wakeUp.sId);

    expect(cancelled.wakeUp).toMatchObject({ sId: wakeUp.sId, status: 'cancelled', nextFireAt: null });
    expect(wakeUpRepository.all()).toEqual([cancelled.wakeUp]);
    expect(wakeUpEvents().map((event) => (event as { status: string }).status)).toEqual([
      'scheduled',
      'cancelled',
    ]);
  });

  it("lets an admin cancel another member's wake-up, which stays theirs", async () => {
    const { oneShot, service, owner, admin, conversation } = await setUp();
    const { wakeUp } = await oneShot(owner);

    const cancelled = await service.cancel(admin, conversation.sId, wakeUp.sId);

    expect(cancelled).toMatchObject({ ownerSId: owner.userSId, wakeUp: { status: 'cancelled' } });
  });

  it('refuses a member who neither owns the wake-up nor is an admin, and changes nothing', async () => {
    const { oneShot, service, other, conversation, wakeUpRepository, wakeUpEvents } = await setUp();
    const { wakeUp } = await oneShot();

    await expect(service.cancel(other, conversation.sId, wakeUp.sId)).rejects.toMatchObject({
      code: 'action_not_allowed',
    });
    expect(wakeUpRepository.all()).toEqual([wakeUp]);
    expect(wakeUpEvents()).toHaveLength(1);
  });

  it('does not find a wake-up of another conversation or an unknown one', async () => {
    const { oneShot, service, owner, conversations } = await setUp();
    const { wakeUp } = await oneShot();
    const { conversation: elsewhere } = await conversations.create(owner, {});

    for (const [sId, wakeUpSId] of [
      [elsewhere.sId, wakeUp.sId],
      [elsewhere.sId, 'wku_unknown000'],
    ]) {
      await expect(service.cancel(owner, sId, wakeUpSId)).rejects.toMatchObject({
        code: 'wakeup_not_found',
      });
    }
  });

  it('returns a terminal wake-up unchanged, announcing nothing more', async () => {
    const { oneShot, service, owner, admin, conversation, wakeUpEvents } = await setUp();
    const { wakeUp } = await oneShot();
    const cancelled = await service.cancel(owner, conversation.sId, wakeUp.sId);

    const again = await service.cancel(admin, conversation.sId, wakeUp.sId);

    expect(again).toEqual(cancelled);
    expect(wakeUpEvents()).toHaveLength(2);
  });

  it("cancels a departing member's scheduled wake-ups in every conversation, announcing each", async () => {
    const context = await setUp();
    const { oneShot, owner, other, conversations, unitOfWork, inProcessEvents, directory, workspace } =
      context;
    const { conversation: second } = await conversations.create(owner, {});
    const mine = await oneShot(owner);
    const mineToo = await oneShot(owner, HOUR, second.sId);
    const { conversation: theirs } = await conversations.create(other, {});
    const kept = await oneShot(other, HOUR, theirs.sId);

    await unitOfWork.run(async () => {
      const user = directory.user(owner.userId);
      directory.removeMember(workspace.id, owner.userId);
      await inProcessEvents.emitInTransaction(MemberRemoved, {
        workspaceId: workspace.id,
        user,
      });
    });

    const statuses = context.wakeUpRepository.all().map((wakeUp) => [wakeUp.sId, wakeUp.status]);
    expect(statuses).toEqual([
      [mine.wakeUp.sId, 'cancelled'],
      [mineToo.wakeUp.sId, 'cancelled'],
      [kept.wakeUp.sId, 'scheduled'],
    ]);
    expect(context.wakeUpEvents(second.id)).toEqual([
      expect.objectContaining({ status: 'scheduled' }),
      expect.objectContaining({ status: 'cancelled', owner: owner.userSId, conversationId: second.sId }),
    ]);
  });

  it("cancels a deleted conversation's wake-up without announcing it", async () => {
    const { oneShot, owner, conversation, unitOfWork, inProcessEvents, wakeUpRepository, wakeUpEvents } =
      await setUp();
    await oneShot();

    await unitOfWork.run(() =>
      inProcessEvents.emitInTransaction(ConversationDeleted, {
        workspaceId: owner.workspaceId,
        conversationId: conversation.id,
      }),
    );

    expect(wakeUpRepository.all().map((wakeUp) => wakeUp.status)).toEqual(['cancelled']);
    expect(wakeUpEvents()).toHaveLength(1);
  });

  it('lets only its owner and admins post in the conversation while the wake-up is scheduled', async () => {
    const { oneShot, service, messages, owner, other, admin, conversation } = await setUp();
    const { wakeUp } = await oneShot();
    const post = (caller: Caller) => messages.postMessage(caller, conversation.sId, messageInput('Hello'));

    await expect(post(other)).rejects.toMatchObject({ code: 'refused_in_current_state' });
    await expect(post(owner)).resolves.toMatchObject({ content: 'Hello' });
    await expect(post(admin)).resolves.toMatchObject({ content: 'Hello' });

    await service.cancel(owner, conversation.sId, wakeUp.sId);
    await expect(post(other)).resolves.toMatchObject({ content: 'Hello' });
  });
});
