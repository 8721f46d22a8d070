import type {
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelToolCall,
  ModelUsage,
} from 'src/modules/runtime/application/ports/model-provider';
import type { RunTokens } from 'src/modules/runtime/application/ports/run-tokens';
import type { RunTreeBudget } from 'src/modules/runtime/application/run-tree-budget';

/**
 * What one model call of a run produced: its text, the calls it asks for (none ends the run), and
 * its cost when the provider reported one.
 */
export interface StepResult {
  text: string;
  calls: ModelToolCall[];
  usage: ModelUsage | null;
}

/**
 * One step of a run, a model call spent from its tree's budget and reserved from its workspace's
 * monthly tokens (refused with `TokenBudgetRefused` when they have no room for it): streams the
 * model's answer, handing each text chunk to `onText` (false stops the step: the run was
 * cancelled), and gathers the tool calls it asks for; the reservation is then settled at the
 * call's reported usage, however it ended. Reasoning chunks go to `onText` as `reasoning`; they are
 * not part of the step's text, which the model reads back.
 */
export async function streamStep(
  provider: ModelProvider,
  budget: RunTreeBudget,
  tokens: RunTokens,
  request: ModelRequest,
  signal: AbortSignal,
  onText: (text: string, reasoning: boolean) => Promise<boolean> | boolean,
): Promise<StepResult | null> {
  budget.spend('model_call');
  const hold = await tokens.reserve(request);
  let text = '';
  const calls: ModelToolCall[] = [];
  let usage: ModelUsage | null = null;
  let ended: boolean;
  try {
    ended = await provider.stream(request, signal, (chunk) => {
      switch (chunk.type) {
        case 'tool_calls':
          calls.push(...chunk.calls);
          return true;
        case 'usage':
          usage = chunk.usage;
          return true;
        case 'text':
          text += chunk.text;
          return onText(chunk.text, false);
        case 'reasoning':
          return onText(chunk.text, true);
      }
    });
  } catch (error) {
    // The call's own failure is what the run reports; a hold not given back here is at its end.
    await tokens.settle(hold, usage).catch(() => undefined);
    throw error;
  }
  await tokens.settle(hold, usage);
  return ended ? { text, calls, usage } : null;
}

/** The model's view of a step that called tools: its answer with the calls, then their results. */
export function stepMessages(
  result: Pick<StepResult, 'text' | 'calls'>,
  toolMessages: ModelMessage[],
): ModelMessage[] {
  return [{ role: 'assistant', content: result.text, toolCalls: result.calls }, ...toolMessages];
}
