import { Injectable } from '@nestjs/common';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import { AgentActionsService } from 'src/modules/runtime/application/agent-actions.service';
import { AnswerSink } from 'src/modules/runtime/application/ports/answer-sink';
import {
  ConversationHistory,
  HistoryEntry,
  HistoryUserMessage,
} from 'src/modules/runtime/application/ports/conversation-history';
import { ModelHistoryService } from 'src/modules/runtime/application/model-history.service';
import { stepMessages, streamStep } from 'src/modules/runtime/application/model-step';
import {
  ModelError,
  ModelMessage,
  ModelProviders,
  ModelRequest,
} from 'src/modules/runtime/application/ports/model-provider';
import { ShutdownSignal } from 'src/modules/runtime/application/run-signals';
import { RunTokensService } from 'src/modules/runtime/application/run-tokens';
import { LendableSlot } from 'src/modules/runtime/application/run-slots';
import {
  LentServers,
  RunToolset,
  RunToolsService,
  askedBy,
} from 'src/modules/runtime/application/run-tools.service';
import { RunBudgetExceeded, RunTreeBudget } from 'src/modules/runtime/application/run-tree-budget';
import { SubAgentRunsService } from 'src/modules/runtime/application/sub-agent-runs.service';
import { ToolCallsService } from 'src/modules/runtime/application/tool-calls.service';
import { AgentRunRepository } from 'src/modules/runtime/application/ports/agent-run.repository';
import type { Run } from 'src/modules/runtime/application/run';
import type { RunStep } from 'src/modules/runtime/domain/agent-run';
import { RetryBudget } from 'src/modules/runtime/domain/retry-budget';
import { RunDataSpaces } from 'src/modules/runtime/domain/run-data-spaces';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';

/** The client-side servers the answered message lends to its run: its author's own, by id. */
function lentServers(run: Run, history: HistoryEntry[]): LentServers | null {
  const asked = history.find(
    (message): message is HistoryUserMessage =>
      message.type === 'user_message' && message.id === run.message.parentMessageId,
  );
  const serverIds = asked?.context.clientSideMCPServerIds ?? [];
  if (!asked || serverIds.length === 0) return null;
  return { owner: { workspaceId: asked.workspaceId, userId: asked.userId }, serverIds };
}

/**
 * Agent runs: their agent messages created and their runs recorded as one runner's, the answer
 * generated and saved in batches, the outcome recorded once.
 */
@Injectable()
export class AgentRunsService {
  constructor(
    private readonly sink: AnswerSink,
    private readonly conversationHistory: ConversationHistory,
    private readonly actions: AgentActionsService,
    private readonly tools: RunToolsService,
    private readonly toolCalls: ToolCallsService,
    private readonly subAgents: SubAgentRunsService,
    private readonly runRecords: AgentRunRepository,
    private readonly models: ModelProviders,
    private readonly modelHistory: ModelHistoryService,
    private readonly runTokens: RunTokensService,
    private readonly unitOfWork: UnitOfWork,
    private readonly config: RuntimeConfig,
    private readonly log: OperatorLog,
  ) {}

  /**
   * The agent messages answering a posted message's new mentions (and those it brings written, to
   * run again), their runs recorded as `runnerId`'s in the transaction that creates them, so a
   * crash never leaves one without a runner.
   */
  async start(posted: MessagePosted, runnerId: string): Promise<Run[]> {
    if (posted.newAgentMentions.length === 0 && !posted.rerun?.length) return [];
    const { caller } = posted;
    return this.unitOfWork.run(async () => {
      const answers = await this.sink.start(posted);
      const runIds = await this.runRecords.start(
        runnerId,
        answers.map(({ conversation, message, agent }) => ({
          workspaceId: caller.workspaceId,
          conversationId: conversation.id,
          messageId: message.id,
          userId: caller.userId,
          answeredMessageId: message.parentMessageId,
          agentSId: agent.sId,
          agentVersion: message.agentVersion,
          modelProviderId: agent.model.providerId,
          modelId: agent.model.modelId,
        })),
      );
      return answers.flatMap((answer) => {
        const runId = runIds.get(answer.message.id);
        return runId === undefined ? [] : [{ ...answer, caller, runId, runnerId, fresh: true }];
      });
    });
  }

  /**
   * Generates the answer and records its outcome: up to `maxStepsPerRun` model calls, each step's
   * tool calls executed before the next (the last step is offered no tools, so it answers). A run
   * resumed by another runner rebuilds its steps from its actions and goes on where it stopped: a
   * step cut mid-answer is asked again, to continue the text it had streamed, so the message only
   * ever grows. `runSignal` stops it: a cancellation (which recorded the outcome already), or a
   * `ShutdownSignal` (the run is handed over, for another process to resume).
   * Its model and tool calls, and those of the agents it asks through `run_agent`, are spent from
   * `budget`: once that is spent, the run fails with `run_budget_exceeded`. `historyRead` is called
   * once its history is read: what follows waits on its tool servers and its model, not the database.
   */
  async generate(
    run: Run,
    runSignal: AbortSignal,
    budget: RunTreeBudget,
    historyRead: () => void = () => {},
  ): Promise<void> {
    const signal = AbortSignal.any([runSignal, budget.signal]);
    let content = run.message.content;
    // The writer gathers the appends of every run into shared writes: the last one handed over is
    // awaited before tool calls and the outcome, so the stream has the text before them.
    let lastAppend: Promise<boolean> = Promise.resolve(true);
    let stopped = false;
    let writeError: Error | null = null;
    let firstChunk = true;
    const flush = () => lastAppend;
    const onText = (text: string, reasoning: boolean): boolean => {
      // Someone cancelled the message (here or on another process): stop generating.
      if (stopped) return false;
      if (writeError !== null) throw writeError;
      if (!text) return true;
      // Reasoning is streamed, but it is not the answer.
      if (!reasoning) content += text;
      // The first chunk is written at once: the time to the first token is the stream's latency.
      lastAppend = this.sink.appendTokens(run, text, reasoning ? 'chain_of_thought' : 'tokens', firstChunk);
      firstChunk = false;
      lastAppend.then(
        (running) => (stopped ||= !running),
        (error: unknown) => (writeError = error instanceof Error ? error : new Error(String(error))),
      );
      return true;
    };
    let toolset: RunToolset | null = null;
    try {
      const dataSpaces = new RunDataSpaces();
      // The tokens of the agents it asks through `run_agent` are this run's cost too.
      const tokens = this.runTokens.of(run.caller.workspaceId, run.runId);
      const asker = { budget, slot: new LendableSlot(), dataSpaces, tokens };
      const [history, record] = await Promise.all([
        this.conversationHistory.history(run),
        run.fresh ? null : this.runRecords.findByMessage(run.caller.workspaceId, run.message.id),
      ]);
      historyRead();
      toolset = await this.tools.open(
        run,
        {
          conversationSId: run.conversation.sId,
          depth: 0,
          dataSpaces,
          tokens,
          askAgent: (agentSId, query, askSignal) =>
            this.subAgents.ask(run.caller, run.conversation.sId, agentSId, query, 1, askSignal, asker),
        },
        budget,
        askedBy(history, run.message.parentMessageId, run.caller.userId),
        lentServers(run, history),
      );
      const provider = this.models.get(run.agent.model.providerId);
      const acceptsImages = provider.acceptsImages(run.agent.model.modelId);
      const messages = await this.modelHistory.messages(run.caller.workspaceId, history, acceptsImages);
      const steps = record?.steps ?? [];
      let step = record?.nextStep ?? 0;
      const resumed = record?.resumePoint(content) ?? { stepTexts: [], cutText: '' };
      // The text a cut step had streamed: the next call continues it, and its step's text starts with it.
      let cutText = resumed.cutText;
      const retries = new RetryBudget(this.config.modelCalls.retryBudget);
      if (steps.length > 0) {
        await this.replay(run, steps, resumed.stepTexts, toolset, messages, signal, budget);
      } else if (!record?.actions.length && toolset.unavailable.length > 0) {
        await this.actions.recordUnavailable(run, toolset.unavailable);
      }
      for (; step < run.agent.maxStepsPerRun; step++) {
        const last = step === run.agent.maxStepsPerRun - 1;
        const result = await streamStep(
          provider,
          budget,
          tokens,
          {
            ...this.request(run),
            retries,
            messages,
            tools: last ? [] : toolset.modelTools,
            ...(cutText && { continueFrom: cutText }),
          },
          signal,
          onText,
        );
        if (!result) return;
        const text = cutText + result.text;
        cutText = '';
        if (result.calls.length === 0) break;
        if (!(await flush())) return;
        const results = await this.toolCalls.execute(run, { step, text }, result.calls, toolset, signal);
        messages.push(...stepMessages({ text, calls: result.calls }, results));
      }
      if (!(await flush())) return;
      await this.sink.finish(run, { status: 'succeeded', content, error: null });
    } catch (error) {
      // The text handed to the writer goes on the stream before the outcome, or the hand-over.
      await lastAppend.catch(() => false);
      if (signal.reason instanceof ShutdownSignal) {
        await this.handOver(run);
        return;
      }
      await this.fail(run, content, error, signal);
    } finally {
      await toolset?.close();
    }
  }

  /**
   * Rebuilds the steps a resumed run made, with the text each wrote, settling those of its last
   * step still open (a call waiting for approval waits again), and counts them against its budget.
   */
  private async replay(
    run: Run,
    steps: RunStep[],
    stepTexts: string[],
    toolset: RunToolset,
    messages: ModelMessage[],
    signal: AbortSignal,
    budget: RunTreeBudget,
  ): Promise<void> {
    budget.count('model_call', steps.length);
    budget.count(
      'tool_call',
      steps
        .flatMap(({ actions }) => actions)
        .filter((action) => action.status !== 'blocked_validation_required').length,
    );
    for (const [index, { actions }] of steps.entries()) {
      const results = await this.toolCalls.resume(run, actions, toolset, signal);
      const calls = actions.map((action) => ({
        id: action.toolCallId,
        name: action.functionCallName,
        arguments: JSON.stringify(action.params),
      }));
      messages.push(...stepMessages({ text: stepTexts[index], calls }, results));
    }
  }

  private request(run: Run): Omit<ModelRequest, 'messages' | 'tools'> {
    return {
      modelId: run.agent.model.modelId,
      instructions: run.agent.instructions ?? '',
      temperature: run.agent.model.temperature,
      reasoningEffort: run.agent.model.reasoningEffort,
      maxOutputTokens: this.config.modelCalls.maxOutputTokens,
    };
  }

  /** The process stops: another runner takes the run over and resumes it. */
  private async handOver(run: Run): Promise<void> {
    await this.runRecords
      .handOver(run.caller.workspaceId, run.message.id, run.runnerId)
      .catch((error: unknown) =>
        // Not handed over, it is taken over once its heartbeat is stale.
        this.log.warn(AgentRunsService.name, { err: error }, 'Could not hand an agent run over'),
      );
  }

  /** This runner's runs are alive. */
  heartbeat(runnerId: string): Promise<void> {
    return this.runRecords.heartbeat(runnerId);
  }

  private async fail(run: Run, content: string, error: unknown, signal: AbortSignal): Promise<void> {
    const exceeded = signal.reason instanceof RunBudgetExceeded ? signal.reason : null;
    if (signal.aborted && !exceeded) {
      // Cancelled: the cancellation already recorded the outcome.
      return;
    }
    const outcome = exceeded
      ? { code: exceeded.code, message: exceeded.message }
      : error instanceof ModelError
        ? { code: error.code, message: error.message }
        : { code: 'agent_run_error', message: 'The agent could not answer because of an internal error.' };
    if (!(error instanceof ModelError) && !signal.aborted)
      this.log.error(AgentRunsService.name, { err: error }, 'Agent run failed');
    await this.sink
      .finish(run, { status: 'failed', content, error: outcome })
      .catch((finishError: unknown) =>
        this.log.error(AgentRunsService.name, { err: finishError }, 'Could not record a failed run'),
      );
  }
}
