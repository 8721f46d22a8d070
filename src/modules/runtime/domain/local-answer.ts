export interface LocalTurn {
  role: 'user' | 'assistant';
  content: string;
}

const QUOTE_MAX = 160;

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= QUOTE_MAX ? flat : `${flat.slice(0, QUOTE_MAX - 1)}…`;
}

/**
 * The built-in model's answer: deterministic, offline, and built from the agent's instructions and
 * the conversation, so tests can predict it and a workspace works without any provider.
 */
export function localAnswer(instructions: string, turns: LocalTurn[]): string {
  const lastUser = [...turns].reverse().find((turn) => turn.role === 'user');
  const userTurns = turns.filter((turn) => turn.role === 'user').length;
  const guidance = quote(instructions.split(/(?<=[.!?])\s/)[0] ?? '');
  return [
    `You said: "${quote(lastUser?.content ?? '')}".`,
    guidance ? `Following my instructions ("${guidance}"),` : 'Without particular instructions,',
    `this is my answer after ${userTurns} message${userTurns === 1 ? '' : 's'} from you.`,
  ].join(' ');
}

/** Splits an answer into word groups, the way a model streams it. */
export function chunkAnswer(answer: string, wordsPerChunk = 3): string[] {
  const words = answer.split(/(?<= )/);
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk)
    chunks.push(words.slice(i, i + wordsPerChunk).join(''));
  return chunks;
}

/** A call the built-in model makes when asked with `/tool <function> {json}`. */
export interface LocalToolCall {
  name: string;
  arguments: string;
}

const TOOL_COMMAND = /^\/tool\s+(\S+)\s*(.*)$/;

/**
 * The calls a user message asks the built-in model to make: one per line of the form
 * `/tool <function> {json arguments}` (arguments default to `{}`), so a newcomer can see tools work
 * without any provider.
 */
export function localToolCalls(userContent: string): LocalToolCall[] {
  return userContent.split('\n').flatMap((line) => {
    const match = TOOL_COMMAND.exec(line.trim());
    return match ? [{ name: match[1], arguments: match[2].trim() || '{}' }] : [];
  });
}

/** The built-in model's answer once its calls answered: each function's output, quoted. */
export function localToolAnswer(results: { name: string; output: string }[]): string {
  return results.map((result) => `${result.name} answered: ${result.output}`).join('\n\n');
}
