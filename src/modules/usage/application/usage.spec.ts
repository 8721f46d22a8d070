import { describe, expect, it } from '@jest/globals';
import { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import type { ModelChunk } from 'src/modules/runtime/application/ports/model-provider';
import { RunTreeBudget } from 'src/modules/runtime/application/run-tree-budget';
import { TokenBudgetRepository } from 'src/modules/usage/application/ports/token-budget.repository';
import { TokenBudgetService } from 'src/modules/usage/application/token-budget.service';
import { UsageReportService } from 'src/modules/usage/application/usage-report.service';
import { UsageConfig } from 'src/modules/usage/usage.config';
import { mentionsOf, messageInput } from 'test/fakes/conversations-context';
import { InMemoryRunUsageRecords } from 'test/fakes/run-usage-records';
import { runtimeContext } from 'test/fakes/runtime-context';

class InMemoryTokenBudgets extends TokenBudgetRepository {
  private readonly budgets = new Map<number, number>();

  async find(workspaceId: number): Promise<number | null> {
    return this.budgets.get(workspaceId) ?? null;
  }

  async save(workspaceId: number, monthlyTokens: number | null): Promise<void> {
    if (monthlyTokens === null) this.budgets.delete(workspaceId);
    else this.budgets.set(workspaceId, monthlyTokens);
  }
}

/** Each answer of the model reports the prompt tokens its request's last user message names. */
function reportsTokens(request: { messages: { role: string; content: string }[] }): ModelChunk[] {
  const asked = request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
  const prompt = Number(/(\d+) tokens/.exec(asked)?.[1] ?? 0);
  return [
    { type: 'text', text: 'Done.' },
    { type: 'usage', usage: { promptTokens: prompt, completionTokens: 10, reasoningTokens: 2 } },
  ];
}

/** Ada and Grace ask two agents of one workspace; a stranger's workspace runs too. */
function setUp(env: Record<string, string> = {}) {
  const context = runtimeContext({ model: reportsTokens });
  const { directory, conversations, messages, inProcessEvents, clock, runs, config } = context;
  const workspace = directory.addWorkspace();
  const ada = directory.addMember(workspace, 'Ada Lovelace', 'admin');
  const grace = directory.addMember(workspace, 'Grace Hopper');
  const writer = directory.addAgent(workspace, 'writer');
  const critic = directory.addAgent(workspace, 'critic');
  const elsewhere = directory.addWorkspace();
  const stranger = directory.addMember(elsewhere, 'Stranger', 'admin');
  const strangerAgent = directory.addAgent(elsewhere, 'writer');
  const records = new InMemoryRunUsageRecords(context.runRepository);
  const reports = new UsageReportService(records, directory.workspaces);
  const budgets = new TokenBudgetService(new InMemoryTokenBudgets(), records, UsageConfig.from(env), clock);

  /** `caller` asks `agents` for `tokens` prompt tokens each at `at`; the runs finish a second later. */
  async function ask(caller: typeof ada, agents: (typeof writer)[], tokens: number, at: string) {
    clock.set(at);
    const { conversation } = await conversations.create(caller, { title: 'Notes' });
    await messages.postMessage(
      caller,
      conversation.sId,
      messageInput(`Use ${tokens} tokens`, mentionsOf(...agents)),
    );
    const posted = inProcessEvents.committedOf(MessagePosted).at(-1)!;
    const started = await runs.start(posted, 'runner');
    clock.set(new Date(new Date(at).getTime() + 1_000));
    for (const run of started)
      await runs.generate(run, new AbortController().signal, RunTreeBudget.of(config.runBudget));
  }
  return { ...context, ada, grace, writer, critic, stranger, strangerAgent, reports, budgets, ask };
}

describe('usage of agent runs', () => {
  it('sums the runs by agent and by day, counting a message that asks two agents once', async () => {
    const { ada, grace, writer, critic, stranger, strangerAgent, reports, ask } = setUp();
    await ask(ada, [writer, critic], 100, '2026-03-10T09:00:00Z');
    await ask(grace, [writer], 300, '2026-03-11T23:00:00Z');
    await ask(stranger, [strangerAgent], 5_000, '2026-03-10T09:00:00Z');

    const byAgent = await reports.report(ada, { start: '2026-03-10', end: '2026-03-11', groupBy: 'agent' });
    const sums = (runs: number, prompt: number) => ({
      runs,
      promptTokens: prompt,
      completionTokens: 10 * runs,
      reasoningTokens: 2 * runs,
      durationMs: 1_000 * runs,
    });
    expect(byAgent.rows).toEqual(
      [
        { agentSId: writer.sId, messages: 2, ...sums(2, 400) },
        { agentSId: critic.sId, messages: 1, ...sums(1, 100) },
      ].sort((a, b) => (a.agentSId < b.agentSId ? -1 : 1)),
    );
    expect(byAgent.total).toEqual({ messages: 2, ...sums(3, 500) });

    const byDayAndUser = await reports.report(ada, {
      start: '2026-03-10',
      end: '2026-03-11',
      groupBy: 'day,user',
    });
    expect(byDayAndUser.rows).toEqual([
      { day: '2026-03-10', userSId: ada.userSId, messages: 1, ...sums(2, 200) },
      { day: '2026-03-11', userSId: grace.userSId, messages: 1, ...sums(1, 300) },
    ]);

    const firstDay = await reports.report(ada, {
      start: '2026-03-10',
      end: '2026-03-10T12:00:00Z',
      groupBy: 'model',
    });
    expect(firstDay.rows).toEqual([
      { modelProviderId: 'local', modelId: 'echo', messages: 1, ...sums(2, 200) },
    ]);
  });

  it('refuses new runs once the month reached the budget, saying when it renews, and not the month after', async () => {
    const { ada, writer, budgets, ask, clock } = setUp({ USAGE_MONTHLY_TOKEN_BUDGET: '150' });
    await expect(budgets.assertMayStartRuns(ada.workspaceId)).resolves.toBeUndefined();
    await ask(ada, [writer], 200, '2026-03-30T09:00:00Z');

    await expect(budgets.assertMayStartRuns(ada.workspaceId)).rejects.toMatchObject({
      code: 'rate_limit_error',
      message: expect.stringContaining('the budget renews at 2026-04-01T00:00:00.000Z'),
    });
    expect(await budgets.status(ada)).toMatchObject({
      monthlyTokens: 150,
      source: 'configuration',
      usedTokens: 210,
      renewsAt: '2026-04-01T00:00:00.000Z',
      spent: true,
    });
    await budgets.set(ada, 1_000);
    await expect(budgets.assertMayStartRuns(ada.workspaceId)).resolves.toBeUndefined();
    await budgets.set(ada, null);
    clock.set('2026-04-01T00:00:00Z');
    await expect(budgets.assertMayStartRuns(ada.workspaceId)).resolves.toBeUndefined();
  });
});
