import type { ContentFragment, ContentFragmentText } from 'src/modules/conversations/domain/content-fragment';

export type NewContentFragment = Omit<ContentFragmentText, 'id' | 'createdAt' | 'type' | 'textBytes'>;

/** Port: the content fragments of conversations. Every query takes the workspace id. */
export abstract class ContentFragmentRepository {
  /** In one statement, returned in the order given. */
  abstract insert(fragments: NewContentFragment[]): Promise<ContentFragment[]>;
  /** In rank order, after `afterRank`, at most `limit`. */
  abstract listAfter(
    workspaceId: number,
    conversationId: number,
    afterRank: number,
    limit: number,
  ): Promise<ContentFragment[]>;
  /** Whether the conversation has a fragment of that sId. */
  abstract exists(workspaceId: number, conversationId: number, sId: string): Promise<boolean>;
  /** One fragment of a conversation, with its text; null when it has none of that sId. */
  abstract findText(
    workspaceId: number,
    conversationId: number,
    sId: string,
  ): Promise<ContentFragmentText | null>;
  /** With their text, in rank order, up to and including `maxRank`. */
  abstract listTextsUpTo(
    workspaceId: number,
    conversationId: number,
    maxRank: number,
  ): Promise<ContentFragmentText[]>;
}
