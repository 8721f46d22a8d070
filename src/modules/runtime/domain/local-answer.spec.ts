import { describe, expect, it } from '@jest/globals';
import {
  chunkAnswer,
  localAnswer,
  localToolAnswer,
  localToolCalls,
} from 'src/modules/runtime/domain/local-answer';

describe('the local model', () => {
  it('answers from the instructions and the latest user message, deterministically', () => {
    const turns = [
      { role: 'user' as const, content: 'First question' },
      { role: 'assistant' as const, content: 'An answer' },
      { role: 'user' as const, content: 'What time is it?' },
    ];
    const answer = localAnswer('Be brief. Never lie.', turns);
    expect(answer).toBe(
      'You said: "What time is it?". Following my instructions ("Be brief."), this is my answer after 2 messages from you.',
    );
    expect(localAnswer('Be brief. Never lie.', turns)).toBe(answer);
  });

  it('streams in several chunks that add up to the answer', () => {
    const answer = localAnswer('Help.', [{ role: 'user', content: 'hi' }]);
    const chunks = chunkAnswer(answer);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('')).toBe(answer);
  });
});

describe('localToolCalls', () => {
  it('reads one call per `/tool <function> {json}` line, arguments defaulting to {}', () => {
    expect(localToolCalls('Please:\n/tool crm__add {"a": 1}\n  /tool crm__list\nthanks')).toEqual([
      { name: 'crm__add', arguments: '{"a": 1}' },
      { name: 'crm__list', arguments: '{}' },
    ]);
  });

  it('reads no call from ordinary text', () => {
    expect(localToolCalls('What does /tool mean?')).toEqual([]);
  });

  it('answers with each output, quoted by function', () => {
    expect(
      localToolAnswer([
        { name: 'crm__add', output: '3' },
        { name: 'crm__echo', output: 'hi' },
      ]),
    ).toBe('crm__add answered: 3\n\ncrm__echo answered: hi');
  });
});
