import { describe, expect, it } from '@jest/globals';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { FEEDBACK_CONTENT_MAX, giveFeedback } from 'src/modules/feedback/domain/feedback';

const on = { workspaceId: 1, messageId: 20, userId: 3 };

describe('giveFeedback', () => {
  it('keeps the direction, the content and the sharing choice', () => {
    expect(
      giveFeedback(on, { thumbDirection: 'down', content: 'Wrong date.', isConversationShared: true }),
    ).toEqual({ ...on, thumbDirection: 'down', content: 'Wrong date.', isConversationShared: true });
  });

  it('replaces whole: no content is empty content, no sharing choice is not shared', () => {
    expect(giveFeedback(on, { thumbDirection: 'up' })).toEqual({
      ...on,
      thumbDirection: 'up',
      content: '',
      isConversationShared: false,
    });
    expect(giveFeedback(on, { thumbDirection: 'up', content: null }).content).toBe('');
  });

  it('refuses another direction, naming the field', () => {
    expect(() => giveFeedback(on, { thumbDirection: 'sideways' })).toThrow(
      new InvalidRequestError('thumbDirection: must be one of up, down.'),
    );
  });

  it('keeps line breaks and tabs, and refuses other control characters, naming the field', () => {
    const text = 'Wrong:\r\n\tthe date.';
    expect(giveFeedback(on, { thumbDirection: 'down', content: text }).content).toBe(text);
    for (const bad of ['nul\u0000', 'bell\u0007', 'del\u007f']) {
      expect(() => giveFeedback(on, { thumbDirection: 'down', content: bad })).toThrow(/^feedbackContent: /);
    }
  });

  it('bounds the content, naming the field', () => {
    const longest = 'x'.repeat(FEEDBACK_CONTENT_MAX);
    expect(giveFeedback(on, { thumbDirection: 'up', content: longest }).content).toBe(longest);
    expect(() => giveFeedback(on, { thumbDirection: 'up', content: `${longest}x` })).toThrow(
      /^feedbackContent: must be at most 4000 characters\.$/,
    );
  });
});
