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
