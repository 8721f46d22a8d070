import { ConversationAccessRestricted } from 'src/modules/conversations/domain/conversations.errors';

export interface ForkOrigin {
  parentConversationId: number;
  sourceMessageId: number;
  branchedAt: Date;
  forkedByUserId: number;
  fileCopyStatus: 'pending' | 'completed';
}

export interface Conversation {
  id: number;
  sId: string;
  workspaceId: number;
  title: string | null;
  depth: number;
  /** Row id of the space the conversation was created in, if any. */
  spaceId: number | null;
  triggerId: string | null;
  metadata: Record<string, unknown>;
  /**
   * Space sIds the mentioned agents need and whose data (tool outputs) the conversation holds; a
   * reader must access all of them. Spaces are only ever added.
   */
  requestedSpaceIds: string[];
  hasError: boolean;
  forkedFrom: ForkOrigin | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What creating a conversation decides; the rest is the database's (ids, times) or comes later. */
export interface NewConversation {
  sId: string;
  workspaceId: number;
  title: string | null;
  depth: number;
  spaceId: number | null;
  requestedSpaceIds: string[];
  forkedFrom: ForkOrigin | null;
  /** sId of the trigger that opened it. */
  triggerId?: string | null;
}

export interface Participation {
  userId: number;
  lastReadAt: Date | null;
  actionRequired: boolean;
}

export const TITLE_MAX = 200;
const DERIVED_TITLE_MAX = 80;

/** A title from the first message: its first line, cut on a word boundary. */
export function deriveTitle(content: string): string {
  const firstLine = content.trim().split('\n')[0].trim().replace(/\s+/g, ' ');
  if (firstLine.length <= DERIVED_TITLE_MAX) return firstLine || 'New conversation';
  const cut = firstLine.slice(0, DERIVED_TITLE_MAX);
  const space = cut.lastIndexOf(' ');
  return `${space > 20 ? cut.slice(0, space) : cut}…`;
}

export function isUnread(
  conversation: Pick<Conversation, 'updatedAt'>,
  participation: Participation | null,
): boolean {
  if (!participation) return true;
  return participation.lastReadAt === null || participation.lastReadAt < conversation.updatedAt;
}

/** The spaces a caller can access, by row id and by sId (conversations name them both ways). */
export interface AccessibleSpaces {
  ids: ReadonlySet<number>;
  sIds: ReadonlySet<string>;
}

export function accessibleSpaces(spaces: readonly { id: number; sId: string }[]): AccessibleSpaces {
  return { ids: new Set(spaces.map((space) => space.id)), sIds: new Set(spaces.map((space) => space.sId)) };
}

/** A conversation in a space, or one that requests spaces, is not readable by every member. */
export function isRestricted(conversation: Pick<Conversation, 'spaceId' | 'requestedSpaceIds'>): boolean {
  return conversation.requestedSpaceIds.length > 0 || conversation.spaceId !== null;
}

/** Readers must access every space the conversation requests, and its own space. */
export function canReadWith(
  conversation: Pick<Conversation, 'spaceId' | 'requestedSpaceIds'>,
  accessible: AccessibleSpaces,
): boolean {
  return (
    conversation.requestedSpaceIds.every((spaceSId) => accessible.sIds.has(spaceSId)) &&
    (conversation.spaceId === null || accessible.ids.has(conversation.spaceId))
  );
}

export function assertCanReadWith(
  conversation: Pick<Conversation, 'spaceId' | 'requestedSpaceIds'>,
  accessible: AccessibleSpaces,
): void {
  if (!canReadWith(conversation, accessible)) throw new ConversationAccessRestricted();
}

/** Conversation row ids grouped by workspace, each once: every query is scoped by one workspace. */
export function refsByWorkspace(
  refs: readonly { workspaceId: number; id: number }[],
): { workspaceId: number; ids: number[] }[] {
  const grouped = new Map<number, Set<number>>();
  for (const { workspaceId, id } of refs) {
    grouped.set(workspaceId, (grouped.get(workspaceId) ?? new Set<number>()).add(id));
  }
  return [...grouped].map(([workspaceId, ids]) => ({ workspaceId, ids: [...ids] }));
}
