import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import type { ModelChunk, ModelRequest } from 'src/modules/runtime/application/ports/model-provider';
import { ShutdownSignal } from 'src/modules/runtime/application/run-signals';
import { RunTreeBudget } from 'src/modules/runtime/application/run-tree-budget';
import { INTERRUPTED_TEXT } from 'src/modules/runtime/application/tool-calls.service';
import { mentionsOf, messageInput } from 'test/fakes/conversations-context';
import { RuntimeContextOptions, runtimeContext } from 'test/fakes/runtime-context';
import { until } from 'test/support/until';

const RUNNER = 'runner-a';
const APPROVAL_TIMEOUT_MS = 60_000;

/** A model that calls `vault__delete_record` once, then answers with what the call gave it. */
function callsThenAnswers(request: ModelRequest) {
  const result = request.messages.find((message) => message.role === 'tool');
  if (result) return [{ type: 'text' as const, text: `Answered: ${result.content}` }];
  return [
    {
      type: 'tool_calls' as const,
      calls: [{ id: 'call_1', name: 'vault__delete_record', arguments: '{"id": "r-1"}' }],
    },
  ];
}

/** `text` cut into pieces at `cuts` (positions, in any order). */
function piecesOf(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  return [0, ...at, text.length]
    .slice(1)
    .map((end, i, ends) => text.slice(i === 0 ? 0 : ends[i - 1], end))
    .filter(Boolean);
}

/** A call's signal, once it aborts: the call fails with its reason, as an MCP client's would. */
function abortedBy(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

/** Ada asks the helper in a new conversation; the post has committed, its answer not started. */
async function setUp(options: RuntimeContextOptions = {}) {
  const context = runtimeContext({
    ...options,
    env: { TOOL_APPROVAL_TIMEOUT_MS: String(APPROVAL_TIMEOUT_MS), ...options.env },
  });
  const { directory, conversations, messages, inProcessEvents } = context;
  const workspace = directory.addWorkspace();
  const ada = directory.addMember(workspace, 'Ada Lovelace');
  const helper = directory.addAgent(workspace, 'helper');
  const { conversation } = await conversations.create(ada, { title: 'Records' });
  await messages.postMessage(ada, conversation.sId, messageInput('Delete r-1', mentionsOf(helper)));
  const [posted] = inProcessEvents.committedOf(MessagePosted);
  const [run] = await context.runs.start(posted, RUNNER);
  const controller = new AbortController();
  const generate = () =>
    context.runs.generate(run, controller.signal, RunTreeBudget.of(context.config.runBudget));
  const message = async () =>
    (await context.messageRepository.findByIds(ada.workspaceId, [run.message.id]))[0];
  const calls = () => context.runRepository.listActionsOfMessages(ada.workspaceId, [run.message.id]);
  const actionRequired = async () =>
    (await context.conversationRepository.participations(ada.workspaceId, [conversation.id], ada.userId)).get(
      conversation.id,
    )?.actionRequired;
  const waiting = () => until(calls, (found) => found[0]?.status === 'blocked_validation_required');
  /** The process stops: the run is handed over, and runner B takes it over and generates it to its end. */
  const stopAndResume = async (generating: Promise<void>) => {
    controller.abort(new ShutdownSignal());
    await generating;
    expect(context.runRepository.allRuns()[0]).toMatchObject({ status: 'running', runnerId: null });
    const [resumed] = await context.recovery.recover('runner-b', 30_000, 'The agent could not be resumed.');
    expect(resumed).toMatchObject({ runId: run.runId, runnerId: 'runner-b' });
    await context.runs.generate(
      resumed,
      new AbortController().signal,
      RunTreeBudget.of(context.config.runBudget),
    );
  };
  /** The agent message once it has its outcome, whichever runner gave it. */
  const ended = () => until(message, (found) => found.type === 'agent_message' && found.status !== 'created');
  /** What a client assembling the stream's answer tokens shows. */
  const streamed = () =>
    context.eventLog
      .eventsOfType(conversation.id, 'generation_tokens')
      .filter((event) => event.classification === 'tokens')
      .map((event) => event.text)
      .join('');
  return {
    ...context,
    ada,
    helper,
    conversation,
    run,
    controller,
    stopAndResume,
    streamed,
    ended,
    generate,
    message,
    calls,
    actionRequired,
    waiting,
  };
}

describe('AgentRunsService', () => {
  it("records one run per answer as the runner's, acting for the member who posted", async () => {
    const { runRepository, run, ada, conversation } = await setUp();

    expect(runRepository.allRuns()).toEqual([
      expect.objectContaining({
        id: run.runId,
        workspaceId: ada.workspaceId,
        conversationId: conversation.id,
        messageId: run.message.id,
        userId: ada.userId,
        status: 'running',
        runnerId: RUNNER,
      }),
    ]);
    expect(run.caller).toBe(ada);
  });

  it('writes the answer the model gives and ends the run with its message', async () => {
    const { generate, message, runRepository, eventLog, conversation, run } = await setUp();

    await generate();

    expect(await message()).toMatchObject({ status: 'succeeded', content: 'Done.' });
    expect(runRepository.allRuns()[0]).toMatchObject({ status: 'succeeded' });
    const types = eventLog.eventsOf(conversation.id).map((event) => event.type);
    expect(types.slice(types.indexOf('agent_message_new'))).toEqual([
      'agent_message_new',
      'generation_tokens',
      'agent_message_done',
      'agent_message_success',
    ]);
    expect(eventLog.eventsOfType(conversation.id, 'agent_message_done')[0]).toMatchObject({
      messageId: run.message.sId,
      status: 'success',
    });
  });

  it('adds the tokens of every model call up on the run, with the agent and model it ran', async () => {
    const usage = (promptTokens: number, completionTokens: number, reasoningTokens: number) => ({
      type: 'usage' as const,
      usage: { promptTokens, completionTokens, reasoningTokens },
    });
    const { generate, runRepository, run, helper } = await setUp({
      tools: [{ name: 'delete_record', answer: () => 'Deleted r-1.' }],
      model: (request) => [
        ...callsThenAnswers(request),
        request.messages.some((message) => message.role === 'tool') ? usage(900, 40, 0) : usage(500, 25, 10),
      ],
    });

    await generate();

    expect(runRepository.allRuns()[0]).toMatchObject({
      status: 'succeeded',
      agentSId: helper.sId,
      agentVersion: 1,
      modelProviderId: 'local',
      modelId: 'echo',
      answeredMessageId: run.message.parentMessageId,
      promptTokens: 1400,
      completionTokens: 65,
      reasoningTokens: 10,
    });
  });

  it('leaves the totals empty when the model reports no usage', async () => {
    const { generate, runRepository } = await setUp();

    await generate();

    expect(runRepository.allRuns()[0]).toMatchObject({
      status: 'succeeded',
      promptTokens: null,
      completionTokens: null,
      reasoningTokens: null,
    });
  });

  it('holds a call that needs approval until the member approves it, then runs it once and goes on', async () => {
    const context = await setUp({
      model: callsThenAnswers,
      tools: [{ name: 'delete_record', needsApproval: true, answer: (args) => `deleted ${String(args.id)}` }],
    });
    const { generate, waiting, approvals, ada, conversation, run, toolServer, message, actionRequired } =
      context;

    const generating = generate();
    const [call] = await waiting();
    expect(call).toMatchObject({ step: 0, approverId: ada.userId, params: { id: 'r-1' } });
    expect(await actionRequired()).toBe(true);
    expect(toolServer.calls).toEqual([]);

    await approvals.validate(ada, conversation.sId, run.message.sId, call.sId, 'approved');
    await generating;

    expect(toolServer.calls).toEqual([{ tool: 'delete_record', args: { id: 'r-1' } }]);
    expect(await message()).toMatchObject({ status: 'succeeded', content: 'Answered: deleted r-1' });
    expect((await context.calls())[0]).toMatchObject({
      status: 'succeeded',
      output: [{ type: 'text', text: 'deleted r-1' }],
      approvalDeadline: null,
    });
    expect(await actionRequired()).toBe(false);
  });

  it('declines a call nobody answers once the clock passes its deadline, and the run goes on without it', async () => {
    const context = await setUp({
      model: callsThenAnswers,
      tools: [{ name: 'delete_record', needsApproval: true }],
    });
    const { generate, waiting, clock, toolServer, message, actionRequired } = context;

    const generating = generate();
    await waiting();
    clock.advance(APPROVAL_TIMEOUT_MS + 1);
    await generating;

    expect(toolServer.calls).toEqual([]);
    const [call] = await context.calls();
    expect(call.status).toBe('denied');
    expect(call.output?.[0].text).toContain('Nobody approved this tool call in time');
    expect((await message()).content).toContain('Answered: Nobody approved this tool call in time');
    expect(await actionRequired()).toBe(false);
  });

  it('ends the run cancelled when its message is cancelled while a call waits, declining the call', async () => {
    const context = await setUp({
      model: callsThenAnswers,
      tools: [{ name: 'delete_record', needsApproval: true }],
    });
    const { generate, waiting, agentMessages, ada, conversation, run, controller, runRepository, eventLog } =
      context;

    const generating = generate();
    await waiting();
    await agentMessages.cancel(ada, conversation.sId, run.message.sId);
    // The cancellation's committed event stops the process's run, as the runner worker does.
    controller.abort();
    await generating;

    expect(await context.message()).toMatchObject({ status: 'cancelled' });
    expect(runRepository.allRuns()[0]).toMatchObject({ status: 'cancelled' });
    const [call] = await context.calls();
    expect(call).toMatchObject({
      status: 'denied',
      output: [{ type: 'text', text: 'The message was cancelled before anyone answered.' }],
    });
    expect(context.toolServer.calls).toEqual([]);
    expect(await context.actionRequired()).toBe(false);
    // The call's refusal is written before the cancellation, in the same transaction.
    expect(
      eventLog
        .eventsOf(conversation.id)
        .map((event) => event.type)
        .slice(-2),
    ).toEqual(['tool_error', 'agent_generation_cancelled']);
  });

  it('takes the restricted spaces a tool read to the conversation with the call that read them', async () => {
    const context = await setUp({
      model: callsThenAnswers,
      tools: [{ name: 'delete_record', readsSpaces: ['vlt_finance'] }],
    });

    await context.generate();

    expect(
      context.conversationRepository.row(context.ada.workspaceId, context.conversation.id),
    ).toMatchObject({
      requestedSpaceIds: ['vlt_finance'],
    });
    expect(context.accessChanges.announced).toEqual([
      { kind: 'conversation_changed', conversationId: context.conversation.id },
    ]);
    expect(await context.message()).toMatchObject({
      status: 'succeeded',
      content: 'Answered: delete_record done',
    });
  });

  describe('handed over when its process stops', () => {
    it('continues a step cut mid-answer: the content is the whole answer, as the stream showed it', async () => {
      const answer = fc.string({ minLength: 1, maxLength: 60, unit: 'grapheme' });
      const cuts = fc.array(fc.nat(), { maxLength: 8 });
      await fc.assert(
        fc.asyncProperty(answer, cuts, fc.nat(), async (text, at, stopAfter) => {
          let stop = () => {};
          const requests: ModelRequest[] = [];
          const { generate, stopAndResume, ended, streamed } = await setUp({
            model: function* (request): Iterable<ModelChunk> {
              requests.push(request);
              const said = request.continueFrom ?? '';
              const pieces = piecesOf(text.slice(said.length), at);
              for (const [index, piece] of pieces.entries()) {
                if (requests.length === 1 && index === stopAfter % (pieces.length + 1)) stop();
                yield { type: 'text', text: piece };
              }
            },
          });
          const generating = generate();
          stop = () => void stopAndResume(generating);
          await generating;
          expect(await ended()).toMatchObject({ status: 'succeeded', content: text });
          expect(streamed()).toBe(text);
          // The second call continues what the first had streamed, whatever it was.
          if (requests.length > 1) expect(text.startsWith(requests[1].continueFrom ?? '')).toBe(true);
        }),
        { numRuns: 40 },
      );
    });

    it('resumes after its last step: the model gets that step back, and the call is not made again', async () => {
      let stop = () => {};
      const context = await setUp({
        model: (request) => {
          if (!request.messages.some((found) => found.role === 'tool'))
            return [{ type: 'text', text: 'Let me delete it. ' }, ...callsThenAnswers(request)];
          stop();
          return [
            { type: 'text', text: 'It is ' },
            { type: 'text', text: 'gone.' },
          ];
        },
        tools: [{ name: 'delete_record', answer: () => 'deleted r-1' }],
      });
      const generating = context.generate();
      stop = () => {
        stop = () => {};
        void context.stopAndResume(generating);
      };
      await generating;
      expect(await context.ended()).toMatchObject({
        status: 'succeeded',
        content: 'Let me delete it. It is gone.',
      });
      expect(context.streamed()).toBe('Let me delete it. It is gone.');
      expect(context.toolServer.calls).toHaveLength(1);
      const requests = context.model.requests;
      expect(requests.at(-1)?.messages.slice(-2)).toEqual([
        expect.objectContaining({ role: 'assistant', content: 'Let me delete it. ' }),
        expect.objectContaining({ role: 'tool', content: 'deleted r-1' }),
      ]);
    });

    it('does not run again a call cut while it ran, unless its tool says that is safe: the model is told', async () => {
      for (const idempotent of [false, true]) {
        const context = await setUp({
          model: callsThenAnswers,
          tools: [
            {
              name: 'delete_record',
              idempotent,
              answer: (_args, signal) => {
                if (context.toolServer.calls.length > 1) return 'deleted r-1';
                void context.stopAndResume(generating);
                return abortedBy(signal);
              },
            },
          ],
        });
        const generating = context.generate();
        await generating;
        const message = await context.ended();
        expect(message).toMatchObject({ status: 'succeeded' });
        if (idempotent) {
          expect(context.toolServer.calls).toHaveLength(2);
          expect(message).toMatchObject({ content: 'Answered: deleted r-1' });
        } else {
          expect(context.toolServer.calls).toHaveLength(1);
          expect(message).toMatchObject({ content: `Answered: ${INTERRUPTED_TEXT}` });
          expect((await context.calls())[0]).toMatchObject({ status: 'failed' });
        }
      }
    });
  });
});
