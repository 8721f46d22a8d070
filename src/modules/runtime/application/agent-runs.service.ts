import { Injectable } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { MessagePosted } from 'src/platform/events/in-process-events';
import { OperatorLog } from 'src/platform/logging/operator-log';
import {
  AgentMessagesService,
  ConversationMessage,
  Run,
} from 'src/modules/conversations/application/agent-messages.service';
import {
  ModelError,
  ModelMessage,
  ModelProviders,
} from 'src/modules/runtime/application/ports/model-provider';
import { RunStateRepository } from 'src/modules/runtime/application/ports/run-state.repository';

export type { Run } from 'src/modules/conversations/application/agent-messages.service';

/** Tokens are written to the log in batches: at this many characters, or after this long. */
const FLUSH_CHARS = 200;
const FLUSH_MS = 100;
/** Stale runs failed per sweep; the next sweep takes the rest. */
const STALE_BATCH = 100;

/** The reason a run's signal carries when its process stops: the run is interrupted, not cancelled. */
export class ShutdownSignal extends Error {
  constructor() {
    super('shutdown');
  }
}

/**
 * Agent runs: their agent messages created and recorded as one runner's, the answer generated and
 * saved in batches, the outcome recorded once; and the runs of runners that stopped, failed.
 */
@Injectable()
export class AgentRunsService {
  constructor(
    private readonly agentMessages: AgentMessagesService,
    private readonly runState: RunStateRepository,
    private readonly models: ModelProviders,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly log: OperatorLog,
  ) {}

  /**
   * The agent messages answering a posted message's new mentions, recorded as `runnerId`'s runs
   * in the transaction that creates them, so a crash never leaves one without a runner.
   */
  async start(posted: MessagePosted, runnerId: string): Promise<Run[]> {
    if (posted.newAgentMentions.length === 0) return [];
    return this.unitOfWork.run(async () => {
      const runs = await this.agentMessages.start(posted);
      await this.runState.claim(
        runnerId,
        runs.map((run) => ({ workspaceId: run.caller.workspaceId, messageId: run.message.id })),
      );
      return runs;
    });
  }

  /**
   * Generates the answer and records its outcome. `signal` stops it: a cancellation (which
   * recorded the outcome already), or a `ShutdownSignal` (the run fails as interrupted).
   */
  async generate(run: Run, signal: AbortSignal): Promise<void> {
    let content = '';
    let pending = '';
    let lastFlush = this.clock.now().getTime();
    const flush = async (): Promise<boolean> => {
      if (!pending) return true;
      const text = pending;
      pending = '';
      lastFlush = this.clock.now().getTime();
      return this.agentMessages.appendTokens(run, text, content);
    };
    try {
      const history = await this.agentMessages.history(run);
      const request = {
        modelId: run.agent.model.modelId,
        instructions: run.agent.instructions ?? '',
        temperature: run.agent.model.temperature,
        reasoningEffort: run.agent.model.reasoningEffort,
        messages: toModelMessages(history),
        tools: [],
      };
      // Without tools, one model call answers; maxStepsPerRun bounds the calls a run may make.
      const steps = Math.min(1, run.agent.maxStepsPerRun);
      for (let step = 0; step < steps; step++) {
        for await (const chunk of this.models.get(run.agent.model.providerId).stream(request, signal)) {
          if (chunk.type !== 'text') continue;
          content += chunk.text;
          pending += chunk.text;
          if (pending.length >= FLUSH_CHARS || this.clock.now().getTime() - lastFlush >= FLUSH_MS) {
            // Someone cancelled the message (here or on another process): stop generating.
            if (!(await flush())) return;
          }
        }
      }
      if (!(await flush())) return;
      await this.agentMessages.finish(run, { status: 'succeeded', content, error: null });
    } catch (error) {
      await this.fail(run, content, error, signal);
    }
  }

  /** This runner's runs are alive. */
  heartbeat(runnerId: string): Promise<void> {
    return this.runState.heartbeat(runnerId);
  }

  /** Fails the runs of runners silent for `staleAfterMs` (this process before a restart included); returns how many. */
  async failStaleRuns(staleAfterMs: number, reason: string): Promise<number> {
    const stale = await this.runState.findStale(staleAfterMs, STALE_BATCH);
    const failed = await this.agentMessages.failInterrupted(stale, reason);
    if (failed > 0)
      this.log.warn(AgentRunsService.name, { failed }, `Failed ${failed} interrupted agent run(s)`);
    return failed;
  }

  private async fail(run: Run, content: string, error: unknown, signal: AbortSignal): Promise<void> {
    if (signal.aborted && !(signal.reason instanceof ShutdownSignal)) {
      // Cancelled: the cancellation already recorded the outcome.
      return;
    }
    const outcome =
      signal.reason instanceof ShutdownSignal
        ? { code: 'run_interrupted', message: 'The service stopped while the agent was answering.' }
        : error instanceof ModelError
          ? { code: error.code, message: error.message }
          : { code: 'agent_run_error', message: 'The agent could not answer because of an internal error.' };
    if (!(error instanceof ModelError) && !signal.aborted)
      this.log.error(AgentRunsService.name, { err: error }, 'Agent run failed');
    await this.agentMessages
      .finish(run, { status: 'failed', content, error: outcome })
      .catch((finishError: unknown) =>
        this.log.error(AgentRunsService.name, { err: finishError }, 'Could not record a failed run'),
      );
  }
}

function toModelMessages(history: ConversationMessage[]): ModelMessage[] {
  return history.flatMap((message): ModelMessage[] => {
    if (message.type === 'user_message') return [{ role: 'user', content: message.content }];
    return message.status === 'succeeded' ? [{ role: 'assistant', content: message.content }] : [];
  });
}
