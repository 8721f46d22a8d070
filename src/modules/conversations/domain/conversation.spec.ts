import { describe, expect, it } from '@jest/globals';
import { deriveTitle, isUnread } from 'src/modules/conversations/domain/conversation';

describe('conversation rules', () => {
  it('derives a title from the first line of the first message', () => {
    expect(deriveTitle('  Hello there\nsecond line')).toBe('Hello there');
    expect(deriveTitle('')).toBe('New conversation');
    const long = deriveTitle('word '.repeat(40));
    expect(long.length).toBeLessThanOrEqual(81);
    expect(long.endsWith('…')).toBe(true);
  });

  it('is unread when updated after the last read', () => {
    const updatedAt = new Date(2000);
    expect(isUnread({ updatedAt }, null)).toBe(true);
    expect(isUnread({ updatedAt }, { userId: 1, lastReadAt: null, actionRequired: false })).toBe(true);
    expect(isUnread({ updatedAt }, { userId: 1, lastReadAt: new Date(1000), actionRequired: false })).toBe(
      true,
    );
    expect(isUnread({ updatedAt }, { userId: 1, lastReadAt: new Date(2000), actionRequired: false })).toBe(
      false,
    );
  });
});
