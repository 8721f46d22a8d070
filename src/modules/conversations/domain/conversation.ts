export interface ForkOrigin {
  parentConversationId: number;
  sourceMessageId: number;
  branchedAt: Date;
  forkedByUserId: number;
  fileCopyStatus: 'pending' | 'done';
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
  /** Space sIds the mentioned agents need; a reader must access all of them. */
  requestedSpaceIds: string[];
  hasError: boolean;
  forkedFrom: ForkOrigin | null;
  createdAt: Date;
  updatedAt: Date;
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
