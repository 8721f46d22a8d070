import { describe, expect, it } from '@jest/globals';
import { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import { ModelError } from 'src/modules/runtime/application/ports/model-provider';
import type { ModelChunk, ModelRequest } from 'src/modules/runtime/application/ports/model-provider';
import { RunTreeBudget } from 'src/modules/runtime/application/run-tree-budget';
import { reservedTokens } from 'src/modules/runtime/domain/model-call-reservation';
import { mentionsOf, messageInput } from 'test/fakes/conversations-context';
import { runtimeContext } from 'test/fakes/runtime-context';

const MONTH = '2026-03-01T00:00:00.000Z';
const USAGE = { promptTokens: 40, completionTokens: 10, reasoningTokens: 2 };

/**
 * Ada asks the helper, whose workspace has `monthlyTokens` (null: no budget); the model answers as
 * `answer` says, which sees what the month holds while the call is under way.
 */
function setUp(monthlyTokens: number | null, answer: (request: ModelRequest) => ModelChunk[]) {
  const held: number[] = [];
  const context = runtimeContext({
    env: { RUN_MAX_OUTPUT_TOKENS: '500' },
    monthlyTokens: async () => monthlyTokens,
    model: (request) => {
      held.push(context.runRepository.monthTokens(workspace.id, MONTH).reservedTokens);
      return answer(request);
    },
  });
  const { directory, conversations, messages, inProcessEvents, clock, runs, config } = context;
  clock.set('2026-03-10T09:00:00Z');
  const workspace = directory.addWorkspace();
  const ada = directory.addMember(workspace, 'Ada Lovelace');
  const helper = directory.addAgent(workspace, 'helper');

  async function ask() {
    const { conversation } = await conversations.create(ada, { title: 'Notes' });
    await messages.postMessage(ada, conversation.sId, messageInput('Summarise', mentionsOf(helper)));
    const [run] = await runs.start(inProcessEvents.committedOf(MessagePosted).at(-1)!, 'runner');
    await runs.generate(run, new AbortController().signal, RunTreeBudget.of(config.runBudget));
    const [message] = await context.messageRepository.findByIds(ada.workspaceId, [run.message.id]);
    const [record] = context.runRepository.allRuns().filter((row) => row.id === run.runId);
    return { message, record };
  }
  const month = () => context.runRepository.monthTokens(workspace.id, MONTH);
  return { ...context, held, ask, month };
}

describe("a run's model calls under the monthly token budget", () => {
  it("reserve the call's most output and its prompt's estimate before it starts, then settle at its usage", async () => {
    const { ask, month, held, model } = setUp(100_000, () => [
      { type: 'text', text: 'Done.' },
      { type: 'usage', usage: USAGE },
    ]);
    const { message, record } = await ask();

    expect(message).toMatchObject({ status: 'succeeded' });
    const [request] = model.requests;
    expect(request.maxOutputTokens).toBe(500);
    expect(held).toEqual([reservedTokens(request)]);
    expect(held[0]).toBeGreaterThan(500);
    expect(month()).toEqual({ usedTokens: 50, reservedTokens: 0 });
    expect(record).toMatchObject({ promptTokens: 40, completionTokens: 10, reservedTokens: 0 });
  });

  it('refuse a call the budget has no room for: the model is not asked, and the run fails saying when it renews', async () => {
    const { ask, month, model } = setUp(400, () => [{ type: 'text', text: 'Done.' }]);
    const { message } = await ask();

    expect(model.requests).toEqual([]);
    expect(message).toMatchObject({
      status: 'failed',
      error: {
        code: 'rate_limit_error',
        message: expect.stringMatching(
          /monthly token budget of 400 tokens has no room .* reserves \d+ tokens .* renews at 2026-04-01T00:00:00\.000Z\.$/,
        ),
      },
    });
    expect(month()).toEqual({ usedTokens: 0, reservedTokens: 0 });
  });

  it('stop at the call that no longer fits, once the calls before it used the month', async () => {
    let calls = 0;
    const { ask, month, model } = setUp(2_000, () => {
      calls += 1;
      return [
        { type: 'text', text: `Answer ${calls}.` },
        { type: 'usage', usage: { promptTokens: 600, completionTokens: 200, reasoningTokens: 0 } },
      ];
    });
    expect((await ask()).message).toMatchObject({ status: 'succeeded' });
    expect((await ask()).message).toMatchObject({ status: 'succeeded' });
    // 1,600 used: the third call's reservation (its 500 of output and more) does not fit.
    const third = await ask();
    expect(third.message).toMatchObject({ status: 'failed', error: { code: 'rate_limit_error' } });
    expect(model.requests).toHaveLength(2);
    expect(month()).toEqual({ usedTokens: 1_600, reservedTokens: 0 });
  });

  it('give the hold back when the call fails', async () => {
    const { ask, month } = setUp(100_000, () => {
      throw new ModelError('model_error', 'The model endpoint answered 500.');
    });
    const { message, record } = await ask();

    expect(message).toMatchObject({ status: 'failed', error: { code: 'model_error' } });
    expect(month()).toEqual({ usedTokens: 0, reservedTokens: 0 });
    expect(record.reservedTokens).toBe(0);
  });

  it('hold nothing without a budget, yet count their usage in the month', async () => {
    const { ask, month, held } = setUp(null, () => [{ type: 'usage', usage: USAGE }]);
    await ask();

    expect(held).toEqual([0]);
    expect(month()).toEqual({ usedTokens: 50, reservedTokens: 0 });
  });
});

describe('the holds of a run', () => {
  /** A run recorded for Ada's message, running, whose calls hold `tokens` of its month. */
  async function holding(tokens: number) {
    const context = runtimeContext();
    const { directory, conversations, messages, inProcessEvents, clock, runs, runRepository } = context;
    clock.set('2026-03-10T09:00:00Z');
    const workspace = directory.addWorkspace();
    const ada = directory.addMember(workspace, 'Ada Lovelace');
    const helper = directory.addAgent(workspace, 'helper');
    const { conversation } = await conversations.create(ada, { title: 'Notes' });
    await messages.postMessage(ada, conversation.sId, messageInput('Summarise', mentionsOf(helper)));
    const [run] = await runs.start(inProcessEvents.committedOf(MessagePosted).at(-1)!, 'runner-a');
    expect(await runRepository.reserveTokens(workspace.id, run.runId, tokens, 10_000)).toBe(true);
    const month = () => runRepository.monthTokens(workspace.id, MONTH);
    return { ...context, workspace, run, month };
  }

  it('are refused past the budget, counting what other calls hold', async () => {
    const { runRepository, workspace, run, month } = await holding(6_000);
    expect(await runRepository.reserveTokens(workspace.id, run.runId, 4_001, 10_000)).toBe(false);
    expect(await runRepository.reserveTokens(workspace.id, run.runId, 4_000, 10_000)).toBe(true);
    expect(month()).toEqual({ usedTokens: 0, reservedTokens: 10_000 });
  });

  it("are given back once, by the call's settlement or by the run's end, whichever comes first", async () => {
    const { runRepository, workspace, run, month } = await holding(3_000);
    await runRepository.finish(workspace.id, run.message.id, 'cancelled');
    // The outcome's transaction leaves the month's row alone; the release after it gives back.
    expect(month()).toEqual({ usedTokens: 0, reservedTokens: 3_000 });
    await runRepository.releaseHolds(workspace.id, run.message.id);
    expect(month()).toEqual({ usedTokens: 0, reservedTokens: 0 });
    // The call cut by the cancellation settles afterwards: its tokens count, its hold is gone.
    await runRepository.settleTokens(workspace.id, run.runId, 3_000, USAGE);
    expect(month()).toEqual({ usedTokens: 50, reservedTokens: 0 });
    expect(await runRepository.reserveTokens(workspace.id, run.runId, 1, 10_000)).toBe(false);
  });

  it('are given back by the sweep when the process that ended the run stopped before it gave them back', async () => {
    const { runRepository, workspace, run, month } = await holding(3_000);
    await runRepository.finish(workspace.id, run.message.id, 'failed');
    await runRepository.releaseEndedHolds(100);
    expect(month()).toEqual({ usedTokens: 0, reservedTokens: 0 });
    expect(runRepository.allRuns()[0]).toMatchObject({ status: 'failed', reservedTokens: 0 });
  });

  it('are given back when another runner takes the run over from a stopped process', async () => {
    const { runRepository, run, month } = await holding(3_000);
    runRepository.ageHeartbeat(run.message.id, 60_000);
    const [stale] = await runRepository.findStale(30_000, 10);
    expect(await runRepository.takeOver('runner-b', [stale], 30_000)).toEqual(new Set([stale.id]));
    expect(month()).toEqual({ usedTokens: 0, reservedTokens: 0 });
    expect(runRepository.allRuns()[0]).toMatchObject({ runnerId: 'runner-b', reservedTokens: 0 });
  });
});
