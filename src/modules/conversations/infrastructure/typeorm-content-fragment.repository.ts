import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  ContentFragmentRepository,
  NewContentFragment,
} from 'src/modules/conversations/application/ports/content-fragment.repository';
import type { ContentFragment, ContentFragmentText } from 'src/modules/conversations/domain/content-fragment';
import { ContentFragmentEntity } from 'src/modules/conversations/infrastructure/conversations.entities';

const toFragment = (e: ContentFragmentEntity): ContentFragment => ({
  type: 'content_fragment',
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  conversationId: e.conversationId,
  rank: e.rank,
  version: e.version,
  title: e.title,
  contentType: e.contentType,
  fileSId: e.fileSId,
  textBytes: e.textBytes,
  sourceUrl: e.sourceUrl,
  author: e.author,
  node: e.node,
  createdAt: e.createdAt,
});

@Injectable()
export class TypeormContentFragmentRepository extends ContentFragmentRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get fragments() {
    return this.db.repository(ContentFragmentEntity);
  }

  exists(workspaceId: number, conversationId: number, sId: string): Promise<boolean> {
    return this.fragments.existsBy({ workspaceId, conversationId, sId });
  }

  async insert(fragments: NewContentFragment[]): Promise<ContentFragment[]> {
    if (fragments.length === 0) return [];
    const result = await this.fragments
      .createQueryBuilder()
      .insert()
      .values(fragments.map((fragment) => ({ ...fragment, textBytes: Buffer.byteLength(fragment.text) })))
      .returning(['id', 'createdAt'])
      .execute();
    const generated = result.generatedMaps as { id: number; createdAt: Date }[];
    return fragments.map(({ text: _text, ...fragment }, i) => ({
      ...fragment,
      type: 'content_fragment',
      id: generated[i].id,
      textBytes: Buffer.byteLength(_text),
      createdAt: generated[i].createdAt,
    }));
  }

  async listAfter(
    workspaceId: number,
    conversationId: number,
    afterRank: number,
    limit: number,
  ): Promise<ContentFragment[]> {
    // Raw SQL, prepared: every page of messages runs it, where the query builder's planning shows.
    const rows = await this.db.hotRead<ContentFragmentEntity>(
      'content-fragments-after',
      `SELECT id, s_id AS "sId", workspace_id AS "workspaceId", conversation_id AS "conversationId", rank,
              version, title, content_type AS "contentType", file_s_id AS "fileSId", text_bytes AS "textBytes",
              source_url AS "sourceUrl", author, node, created_at AS "createdAt"
       FROM content_fragments
       WHERE workspace_id = $1 AND conversation_id = $2 AND rank > $3
       ORDER BY rank LIMIT $4`,
      [workspaceId, conversationId, afterRank, limit],
    );
    return rows.map(toFragment);
  }

  async findText(
    workspaceId: number,
    conversationId: number,
    sId: string,
  ): Promise<ContentFragmentText | null> {
    const row = await this.fragments
      .createQueryBuilder('f')
      .addSelect('f.text')
      .where('f.workspace_id = :workspaceId AND f.conversation_id = :conversationId AND f.s_id = :sId', {
        workspaceId,
        conversationId,
        sId,
      })
      .getOne();
    return row && { ...toFragment(row), text: row.text };
  }

  async listTextsUpTo(
    workspaceId: number,
    conversationId: number,
    maxRank: number,
  ): Promise<ContentFragmentText[]> {
    const rows = await this.fragments
      .createQueryBuilder('f')
      .addSelect('f.text')
      .where('f.workspace_id = :workspaceId AND f.conversation_id = :conversationId AND f.rank <= :maxRank', {
        workspaceId,
        conversationId,
        maxRank,
      })
      .orderBy('f.rank', 'ASC')
      .getMany();
    return rows.map((row) => ({ ...toFragment(row), text: row.text }));
  }
}
