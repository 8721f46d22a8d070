import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { AppConfig } from 'src/platform/config/app-config';
import { McpCallTimeout } from 'src/platform/mcp/mcp-session';
import { AgentsService } from 'src/modules/agents/application/agents.service';
import { stepMessages, streamStep } from 'src/modules/runtime/application/model-step';
import {
  ModelMessage,
  ModelProviders,
  ModelToolCall,
} from 'src/modules/runtime/application/ports/model-provider';
import { RunToolset, RunToolsService } from 'src/modules/runtime/application/run-tools.service';
import { parseToolArguments } from 'src/modules/runtime/domain/tool-arguments';
import { capToolOutput } from 'src/modules/runtime/domain/tool-output';

/**
 * Runs an agent on a question for another agent's `run_agent` tool: in memory, to its final text.
 * Its own tool calls run as in any run (timeout, output cap) but are not recorded, and one that
 * needs approval is refused, since nobody is there to answer it; the nesting depth is capped.
 */
@Injectable()
export class SubAgentRunsService {
  constructor(
    private readonly agents: AgentsService,
    private readonly tools: RunToolsService,
    private readonly models: ModelProviders,
    private readonly config: AppConfig,
  ) {}

  async ask(
    caller: Caller,
    conversationSId: string,
    agentSId: string,
    query: string,
    depth: number,
    signal: AbortSignal,
  ): Promise<string> {
    const [details] = await this.agents.describe(caller, [agentSId]);
    if (!details || !details.canRead || details.agent.status !== 'active')
      throw new Error(`No active agent ${agentSId} that you can read.`);
    const agent = details.agent;
    const toolset = await this.tools.open(
      { caller, agent },
      {
        conversationSId,
        depth,
        askAgent: (childSId, childQuery, childSignal) =>
          this.ask(caller, conversationSId, childSId, childQuery, depth + 1, childSignal),
      },
    );
    try {
      const messages: ModelMessage[] = [{ role: 'user', content: query }];
      const provider = this.models.get(agent.model.providerId);
      let answer = '';
      for (let step = 0; step < agent.maxStepsPerRun; step++) {
        const last = step === agent.maxStepsPerRun - 1;
        const result = await streamStep(
          provider,
          {
            modelId: agent.model.modelId,
            instructions: agent.instructions ?? '',
            temperature: agent.model.temperature,
            reasoningEffort: agent.model.reasoningEffort,
            messages,
            tools: last ? [] : toolset.modelTools,
          },
          signal,
          () => true,
        );
        answer += result?.text ?? '';
        if (!result || result.calls.length === 0) break;
        messages.push(...stepMessages(result, await this.callAll(result.calls, toolset, signal)));
      }
      return answer;
    } finally {
      await toolset.close();
    }
  }

  private async callAll(calls: ModelToolCall[], toolset: RunToolset, signal: AbortSignal) {
    const { maxCallsPerStep, callTimeoutMs, outputMaxBytes } = this.config.tools;
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
