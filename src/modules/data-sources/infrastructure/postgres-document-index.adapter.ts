import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { DocumentIndex, SearchTarget } from 'src/modules/data-sources/application/ports/document-index';
import type { DocumentChunk } from 'src/modules/data-sources/domain/document';
import type { ChunkHit } from 'src/modules/data-sources/domain/document-search';

/** About 750 KB of chunk text: a few milliseconds to serialise. */
const CHUNKS_PER_STATEMENT = 512;

/**
 * Full-text search on PostgreSQL: each chunk's `tsvector` is generated with its data source's
 * configuration and GIN-indexed; queries are read with `websearch_to_tsquery` (quotes, `or`, `-`)
 * in the same configuration and ranked with `ts_rank_cd` (cover density: close terms rank higher).
 */
@Injectable()
export class PostgresDocumentIndex extends DocumentIndex {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  async index(
    workspaceId: number,
    document: { id: number; dataSourceId: number },
    textSearchConfig: string,
    chunks: DocumentChunk[],
  ): Promise<void> {
    // The old entries go in the statement that inserts the first batch of new ones: one round trip
    // for most documents. A long one goes in batches, each serialised in its own turn of the event loop.
    for (let from = 0; from === 0 || from < chunks.length; from += CHUNKS_PER_STATEMENT) {
      const batch = chunks.slice(from, from + CHUNKS_PER_STATEMENT);
      await this.db.manager().query(
        `${from === 0 ? 'WITH gone AS (DELETE FROM data_source_document_chunks WHERE workspace_id = $1 AND document_id = $3)' : ''}
         INSERT INTO data_source_document_chunks (workspace_id, data_source_id, document_id, ts_config, chunk_index, "offset", text)
         SELECT $1, $2, $3, $4::regconfig, c.chunk_index, c.chunk_offset, c.text
         FROM unnest($5::int[], $6::int[], $7::text[]) AS c(chunk_index, chunk_offset, text)`,
        [
          workspaceId,
          document.dataSourceId,
          document.id,
          textSearchConfig,
          batch.map((chunk) => chunk.index),
          batch.map((chunk) => chunk.offset),
          batch.map((chunk) => chunk.text),
        ],
      );
    }
  }

  async search(workspaceId: number, target: SearchTarget, query: string, limit: number): Promise<ChunkHit[]> {
    // Chunks are ranked first; only the best ones fetch their document's title, URL, tags and parents.
    const rows = await this.db.manager().query<(Omit<ChunkHit, 'score'> & { score: number | string })[]>(
      `SELECT best.data_source_id AS "dataSourceId", d.document_id AS "documentId", d.title,
         d.source_url AS "sourceUrl", d.tags, d.parents, best.text, best."offset", best.score,
         encode(sha256(convert_to(best.text, 'UTF8')), 'hex') AS "chunkHash"
       FROM (
         SELECT c.id, c.data_source_id, c.document_id, c.text, c."offset", ts_rank_cd(c.tsv, q.query) AS score
         FROM data_source_document_chunks c
         CROSS JOIN websearch_to_tsquery($3::regconfig, $4) AS q(query)
         WHERE c.workspace_id = $1 AND c.data_source_id = $2 AND c.tsv @@ q.query
           AND ($5::text[] IS NULL OR EXISTS (
             SELECT 1 FROM data_source_documents p WHERE p.id = c.document_id AND p.parents && $5::text[]))
         ORDER BY score DESC, c.id ASC
         LIMIT $6
       ) best
       JOIN data_source_documents d ON d.id = best.document_id
       ORDER BY best.score DESC, best.id ASC`,
      [workspaceId, target.dataSourceId, target.textSearchConfig, query, target.parentsIn, limit],
    );
    return rows.map((row) => ({ ...row, score: Number(row.score) }));
  }
}
