import { describe, expect, it } from '@jest/globals';
import {
  accessibleSpaces,
  assertCanReadWith,
  canReadWith,
  deriveTitle,
  isRestricted,
  isUnread,
  refsByWorkspace,
} from 'src/modules/conversations/domain/conversation';
import { ConversationAccessRestricted } from 'src/modules/conversations/domain/conversations.errors';

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

  describe('who reads a conversation', () => {
    const open = { spaceId: null, requestedSpaceIds: [] };
    const inSpace = { spaceId: 7, requestedSpaceIds: [] };
    const needingSpaces = { spaceId: null, requestedSpaceIds: ['vlt_a', 'vlt_b'] };
    const reader = (...spaces: { id: number; sId: string }[]) => accessibleSpaces(spaces);

    it('restricts a conversation of a space, or one whose agents need spaces', () => {
      expect(isRestricted(open)).toBe(false);
      expect(isRestricted(inSpace)).toBe(true);
      expect(isRestricted(needingSpaces)).toBe(true);
    });

    it('lets any member read an open conversation', () => {
      expect(canReadWith(open, reader())).toBe(true);
    });

    it('needs the conversation own space, by row id', () => {
      expect(canReadWith(inSpace, reader({ id: 7, sId: 'spc_7' }))).toBe(true);
      expect(canReadWith(inSpace, reader({ id: 8, sId: 'spc_8' }))).toBe(false);
    });

    it('needs every space its agents need, by sId', () => {
      const both = reader({ id: 1, sId: 'vlt_a' }, { id: 2, sId: 'vlt_b' });
      expect(canReadWith(needingSpaces, both)).toBe(true);
      expect(canReadWith(needingSpaces, reader({ id: 1, sId: 'vlt_a' }))).toBe(false);
      expect(canReadWith({ spaceId: 7, requestedSpaceIds: ['vlt_a'] }, both)).toBe(false);
    });

    it('refuses with conversation_access_restricted', () => {
      expect(() => assertCanReadWith(inSpace, reader())).toThrow(ConversationAccessRestricted);
      expect(() => assertCanReadWith(inSpace, reader({ id: 7, sId: 'spc_7' }))).not.toThrow();
    });
  });

  it('groups conversation refs by workspace, each id once', () => {
    expect(
      refsByWorkspace([
        { workspaceId: 1, id: 10 },
        { workspaceId: 2, id: 20 },
        { workspaceId: 1, id: 11 },
        { workspaceId: 1, id: 10 },
      ]),
    ).toEqual([
      { workspaceId: 1, ids: [10, 11] },
      { workspaceId: 2, ids: [20] },
    ]);
  });
});
