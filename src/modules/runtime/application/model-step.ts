import type {
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelToolCall,
  ModelUsage,
} from 'src/modules/runtime/application/ports/model-provider';
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
 * One step of a run, a model call spent from its tree's budget: streams the model's answer, handing
 * each text chunk to `onText` (false stops the step: the run was cancelled), and gathers the tool
 * calls it asks for. Reasoning chunks go to `onText` as `reasoning`; they are not part of the
 * step's text, which the model reads back.
 */
export async function streamStep(
  provider: ModelProvider,
  budget: RunTreeBudget,
  request: ModelRequest,
  signal: AbortSignal,
  onText: (text: string, reasoning: boolean) => Promise<boolean> | boolean,
): Promise<StepResult | null> {
  budget.spend('model_call');
  let text = '';
  const calls: ModelToolCall[] = [];
  let usage: ModelUsage | null = null;
  for await (const chunk of provider.stream(request, signal)) {
    if (chunk.type === 'tool_calls') {
      calls.push(...chunk.calls);
      continue;
    }
    if (chunk.type === 'usage') {
      usage = chunk.usage;
      continue;
    }
    if (chunk.type === 'text') text += chunk.text;
    // Awaited only when it is a promise: a run's handler answers at once, token after token.
    const going = onText(chunk.text, chunk.type === 'reasoning');
    if (!(going === true || (going !== false && (await going)))) return null;
  }
  return { text, calls, usage };
}

/** The model's view of a step that called tools: its answer with the calls, then their results. */
export function stepMessages(
  result: Pick<StepResult, 'text' | 'calls'>,
  toolMessages: ModelMessage[],
): ModelMessage[] {
  return [{ role: 'assistant', content: result.text, toolCalls: result.calls }, ...toolMessages];
}
