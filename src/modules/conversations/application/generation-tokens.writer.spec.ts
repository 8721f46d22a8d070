import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { AgentMessage } from 'src/modules/conversations/domain/message';
import { conversationsContext, mentionsOf, messageInput } from 'test/fakes/conversations-context';

type Classification = 'tokens' | 'chain_of_thought';

/** An append of a chunk to one of the answers, or the cancellation of one. */
type Step =
  | { kind: 'append'; answer: number; text: string; reasoning: boolean; urgent: boolean; pause: boolean }
  | { kind: 'cancel'; answer: number };

const ANSWERS = 4;

/** Two conversations, each asking two agents: four answers running at once. */
async function setUp() {
  const context = conversationsContext();
  const { directory, conversations, messages, startAnswers } = context;
  const workspace = directory.addWorkspace();
  const ada = directory.addMember(workspace, 'Ada Lovelace');
  const helper = directory.addAgent(workspace, 'helper');
  const scribe = directory.addAgent(workspace, 'scribe');
  const answers = [];
  for (const title of ['First', 'Second']) {
    const { conversation } = await conversations.create(ada, { title });
    await messages.postMessage(ada, conversation.sId, messageInput('Go', mentionsOf(helper, scribe)));
    answers.push(...(await startAnswers()));
  }
  return { ...context, answers };
}

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      answer: fc.nat(ANSWERS - 1),
      text: fc.string({ minLength: 1, maxLength: 4 }),
      reasoning: fc.boolean(),
      urgent: fc.boolean(),
      pause: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), answer: fc.nat(ANSWERS - 1) }) },
);

/** Each character with its classification: what a stream of chunks amounts to, however it is cut. */
const spelled = (parts: { text: string; classification: Classification }[]) =>
  parts.flatMap(({ text, classification }) => [...text].map((char) => `${classification}:${char}`));

describe('GenerationTokensWriter (property)', () => {
  it('writes every answer’s chunks in order through shared writes, none after a cancellation, the content matching the stream', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        const { answers, agentMessages, eventLog, messageRepository } = await setUp();
        const appended = answers.map(() => [] as { text: string; classification: Classification }[]);
        const outcomes = answers.map(() => [] as Promise<boolean>[]);
        const afterCancel = answers.map(() => [] as Promise<boolean>[]);
        const cancelled = new Set<number>();
        for (const s of steps) {
          const answer = answers[s.answer];
          if (s.kind === 'cancel') {
            await agentMessages.cancelRunning(answer.conversation, [answer.message]);
            cancelled.add(s.answer);
            continue;
          }
          const classification: Classification = s.reasoning ? 'chain_of_thought' : 'tokens';
          const written = agentMessages.appendTokens(answer, s.text, classification, s.urgent);
          if (cancelled.has(s.answer)) afterCancel[s.answer].push(written);
          else appended[s.answer].push({ text: s.text, classification });
          outcomes[s.answer].push(written);
          // Sometimes wait for the write: later appends then go to the next one.
          if (s.pause) await written;
        }
        const results = await Promise.all(outcomes.map((list) => Promise.all(list)));

        for (const [index, answer] of answers.entries()) {
          const events = eventLog
            .eventsOf(answer.conversation.id)
            .filter((event) => 'messageId' in event && event.messageId === answer.message.sId);
          const streamed = events.flatMap((event) =>
            event.type === 'generation_tokens'
              ? [{ text: event.text, classification: event.classification }]
              : [],
          );
          const [message] = (await messageRepository.findByIds(answer.conversation.workspaceId, [
            answer.message.id,
          ])) as AgentMessage[];
          const streamedAnswer = streamed
            .filter((part) => part.classification === 'tokens')
            .map((part) => part.text)
            .join('');
          // A reader of the message sees what the stream carried of the answer, nothing else.
          expect(message.content).toBe(streamedAnswer);
          if (!cancelled.has(index)) {
            expect(spelled(streamed)).toEqual(spelled(appended[index]));
            expect(results[index].every(Boolean)).toBe(true);
            continue;
          }
          // Cancelled: what was written before it, in order, and nothing after its event.
          expect(spelled(appended[index]).slice(0, spelled(streamed).length)).toEqual(spelled(streamed));
          const cancellation = events.findIndex((event) => event.type === 'agent_generation_cancelled');
          expect(cancellation).toBe(events.length - 1);
          expect(await Promise.all(afterCancel[index])).not.toContain(true);
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
