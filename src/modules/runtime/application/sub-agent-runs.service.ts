import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { McpConfig } from 'src/platform/mcp/mcp.config';
import { McpCallTimeout } from 'src/platform/mcp/mcp-session';
import { AgentDetails, AgentsService } from 'src/modules/agents/agents.api';
import { stepMessages, streamStep } from 'src/modules/runtime/application/model-step';
import {
  ModelMessage,
  ModelProviders,
  ModelToolCall,
} from 'src/modules/runtime/application/ports/model-provider';
import { LendableSlot, RunSlots } from 'src/modules/runtime/application/run-slots';
import type { RunTokens } from 'src/modules/runtime/application/ports/run-tokens';
import { RunToolset, RunToolsService } from 'src/modules/runtime/application/run-tools.service';
import type { RunDataSpaces } from 'src/modules/runtime/domain/run-data-spaces';
import { RetryBudget } from 'src/modules/runtime/domain/retry-budget';
import type { RunTreeBudget } from 'src/modules/runtime/application/run-tree-budget';
import { parseToolArguments } from 'src/modules/runtime/domain/tool-arguments';
import { capToolOutput } from 'src/modules/runtime/domain/tool-output';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';

/**
 * What a run gives the runs it asks through `run_agent`: its tree's budget, its slot to lend, where
 * the restricted spaces their tools read are collected, and its tokens, which theirs are part of.
 */
export interface AskingRun {
  budget: RunTreeBudget;
  slot: LendableSlot;
  dataSpaces: RunDataSpaces;
  tokens: RunTokens;
}

/**
 * Runs an agent on a question for another agent's `run_agent` tool: in memory, to its final text.
 * Its own tool calls run as in any run (timeout, output cap) but are not recorded, and one that
 * needs approval is refused, since nobody is there to answer it; the nesting depth is capped. It
 * runs in a slot of the process (its asker's, while that waits for it) and spends its tree's budget;
 * the restricted spaces its tools read go to the asking run's `dataSpaces`, whose answer carries them.
 */
@Injectable()
export class SubAgentRunsService {
  constructor(
    private readonly agents: AgentsService,
    private readonly tools: RunToolsService,
    private readonly models: ModelProviders,
    private readonly slots: RunSlots,
    private readonly config: RuntimeConfig,
    private readonly mcp: McpConfig,
  ) {}

  async ask(
    caller: Caller,
    conversationSId: string,
    agentSId: string,
    query: string,
    depth: number,
    askSignal: AbortSignal,
    asker: AskingRun,
  ): Promise<string> {
    const [details] = await this.agents.describe(caller, [agentSId]);
    if (!details || !details.canRead || details.agent.status !== 'active')
      throw new Error(`No active agent ${agentSId} that you can read.`);
    const agent = details.agent;
    const signal = AbortSignal.any([askSignal, asker.budget.signal]);
    const release = await this.slots.nested(asker.slot, caller.workspaceId, signal);
    const own: AskingRun = { ...asker, slot: new LendableSlot() };
    try {
      const toolset = await this.tools.open(
        { caller, agent },
        {
          conversationSId,
          depth,
          dataSpaces: asker.dataSpaces,
          tokens: asker.tokens,
          askAgent: (childSId, childQuery, childSignal) =>
            this.ask(caller, conversationSId, childSId, childQuery, depth + 1, childSignal, own),
        },
        asker.budget,
      );
      try {
        return await this.answer(agent, query, toolset, asker, signal);
      } finally {
        await toolset.close();
      }
    } finally {
      release();
    }
  }

  private async answer(
    agent: AgentDetails['agent'],
    query: string,
    toolset: RunToolset,
    asker: AskingRun,
    signal: AbortSignal,
  ): Promise<string> {
    const messages: ModelMessage[] = [{ role: 'user', content: query }];
    const provider = this.models.get(agent.model.providerId);
    const retries = new RetryBudget(this.config.modelCalls.retryBudget);
    let answer = '';
    for (let step = 0; step < agent.maxStepsPerRun; step++) {
      const last = step === agent.maxStepsPerRun - 1;
      const result = await streamStep(
        provider,
        asker.budget,
        asker.tokens,
        {
          modelId: agent.model.modelId,
          instructions: agent.instructions ?? '',
          temperature: agent.model.temperature,
          reasoningEffort: agent.model.reasoningEffort,
          messages,
          tools: last ? [] : toolset.modelTools,
          maxOutputTokens: this.config.modelCalls.maxOutputTokens,
          retries,
        },
        signal,
        () => true,
      );
      answer += result?.text ?? '';
      if (!result || result.calls.length === 0) break;
      messages.push(...stepMessages(result, await this.callAll(result.calls, toolset, signal)));
    }
    return answer;
  }

  private async callAll(calls: ModelToolCall[], toolset: RunToolset, signal: AbortSignal) {
    const { maxCallsPerStep } = this.config.tools;
    const { callTimeoutMs, outputMaxBytes } = this.mcp;
    const outputs = await Promise.all(
      calls.map(async (call, index): Promise<string> => {
        const tool = toolset.find(call.name);
        if (index >= maxCallsPerStep)
          return `Not run: at most ${maxCallsPerStep} tool calls are allowed in one step.`;
        if (!tool) return `There is no tool named ${call.name}.`;
        if (tool.needsApproval)
          return 'Not run: this tool needs approval, which a nested agent cannot ask for.';
        const params = parseToolArguments(call.arguments);
        if (!params) return 'The arguments are not a JSON object.';
        try {
          const output = await toolset.call(tool, params, {
            signal,
            timeoutMs: callTimeoutMs,
          });
          return capToolOutput(
            output.content.map((item) => item.text),
            outputMaxBytes,
          );
        } catch (error) {
          if (signal.aborted) throw error;
          return error instanceof McpCallTimeout ? error.message : `The tool call failed: ${String(error)}`;
        }
      }),
    );
    return calls.map((call, index): ModelMessage => ({
      role: 'tool',
      toolCallId: call.id,
      content: outputs[index],
    }));
  }
}
