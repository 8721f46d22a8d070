import type { Clock } from 'src/platform/clock/clock';
import {
  ContentFragmentRepository,
  NewContentFragment,
} from 'src/modules/conversations/application/ports/content-fragment.repository';
import type { ContentFragment, ContentFragmentText } from 'src/modules/conversations/domain/content-fragment';
import { InMemoryTable } from 'test/fakes/in-memory-table';
import type { InMemoryUnitOfWork } from 'test/fakes/unit-of-work';

/**
 * Content fragments in memory, with the database's rules: one fragment per (conversation, rank)
 * and per (workspace, sId), every read scoped by workspace, the text read only where asked for.
 */
export class InMemoryContentFragmentRepository extends ContentFragmentRepository {
  private readonly fragments: InMemoryTable<ContentFragmentText>;

  constructor(private readonly options: { unitOfWork?: InMemoryUnitOfWork; clock?: Clock } = {}) {
    super();
    this.fragments = new InMemoryTable(options.unitOfWork);
  }

  /** The fragments of a conversation with their text, in the order they were written. */
  allIn(conversationId: number): ContentFragmentText[] {
    return this.fragments.select((fragment) => fragment.conversationId === conversationId);
  }

  async insert(fragments: NewContentFragment[]): Promise<ContentFragment[]> {
    return fragments.map((fragment) => {
      const id = this.fragments.nextId();
      const clash = this.fragments.select(
        (row) =>
          (row.conversationId === fragment.conversationId && row.rank === fragment.rank) ||
          (row.workspaceId === fragment.workspaceId && row.sId === fragment.sId),
      );
      if (clash.length > 0) throw new Error(`duplicate key: a fragment already holds rank ${fragment.rank}`);
      const { text: _text, ...stored } = this.fragments.insert({
        ...fragment,
        type: 'content_fragment',
        id,
        textBytes: Buffer.byteLength(fragment.text),
        createdAt: this.options.clock?.now() ?? new Date(),
      });
      return stored;
    });
  }

  async listAfter(
    workspaceId: number,
    conversationId: number,
    afterRank: number,
    limit: number,
  ): Promise<ContentFragment[]> {
    return this.inConversation(workspaceId, conversationId)
      .filter((fragment) => fragment.rank > afterRank)
      .slice(0, limit)
      .map(({ text: _text, ...fragment }) => fragment);
  }

  async exists(workspaceId: number, conversationId: number, sId: string): Promise<boolean> {
    return this.inConversation(workspaceId, conversationId).some((fragment) => fragment.sId === sId);
  }

  async findText(
    workspaceId: number,
    conversationId: number,
    sId: string,
  ): Promise<ContentFragmentText | null> {
    return this.inConversation(workspaceId, conversationId).find((fragment) => fragment.sId === sId) ?? null;
  }

  async listTextsUpTo(
    workspaceId: number,
    conversationId: number,
    maxRank: number,
  ): Promise<ContentFragmentText[]> {
    return this.inConversation(workspaceId, conversationId).filter((fragment) => fragment.rank <= maxRank);
  }

  /** A conversation's fragments, in rank order. */
  private inConversation(workspaceId: number, conversationId: number): ContentFragmentText[] {
    return this.fragments
      .select(
        (fragment) => fragment.workspaceId === workspaceId && fragment.conversationId === conversationId,
      )
      .sort((a, b) => a.rank - b.rank);
  }
}
