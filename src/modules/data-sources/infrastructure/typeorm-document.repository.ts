import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  DocumentRepository,
  DocumentScope,
  DocumentSummary,
  DocumentToStore,
} from 'src/modules/data-sources/application/ports/document.repository';
import type { DataSourceDocument } from 'src/modules/data-sources/domain/document';
import {
  DOCUMENT_COUNT_STRIPES,
  DataSourceDocumentEntity,
} from 'src/modules/data-sources/infrastructure/data-sources.entities';

type DocumentRow = Omit<DataSourceDocumentEntity, 'text' | 'workspaceId'> & { text?: string };

function toSummary(row: DocumentRow): DocumentSummary {
  return {
    id: row.id,
    dataSourceId: row.dataSourceId,
    documentId: row.documentId,
    title: row.title,
    textBytes: row.textBytes,
    sourceUrl: row.sourceUrl,
    tags: row.tags,
    parents: row.parents,
    mimeType: row.mimeType,
    timestamp: Number(row.timestamp),
    hash: row.hash,
    chunkCount: row.chunkCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const toDocument = (row: DataSourceDocumentEntity): DataSourceDocument => ({
  ...toSummary(row),
  text: row.text,
});

const SUMMARY_COLUMNS = `id, data_source_id AS "dataSourceId", document_id AS "documentId", title,
  text_bytes AS "textBytes", source_url AS "sourceUrl", tags, parents, mime_type AS "mimeType",
  timestamp, hash, chunk_count AS "chunkCount", created_at AS "createdAt", updated_at AS "updatedAt"`;
const COLUMNS = `${SUMMARY_COLUMNS}, text`;

/**
 * Counts one document on a stripe of data source `$2` (workspace `$1`) still under its share of
 * `max`, the emptiest first; with `skipLocked`, only on a stripe no other transaction holds, so
 * concurrent creations take different ones. Returns the stripe, or no row.
 */
function countOnAStripe(options: { max: string; skipLocked: boolean; onlyIf?: string }): string {
  const { max, skipLocked, onlyIf } = options;
  return `UPDATE data_source_document_counts c SET count = c.count + 1
    FROM (SELECT stripe FROM data_source_document_counts
      WHERE workspace_id = $1 AND data_source_id = $2${onlyIf ? ` AND ${onlyIf}` : ''}
        AND count < ${max}::int / ${DOCUMENT_COUNT_STRIPES} + (stripe < ${max}::int % ${DOCUMENT_COUNT_STRIPES})::int
      ORDER BY count, stripe LIMIT 1 FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}) free
    WHERE c.data_source_id = $2 AND c.stripe = free.stripe RETURNING c.stripe`;
}

@Injectable()
export class TypeormDocumentRepository extends DocumentRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get rows() {
    return this.db.repository(DataSourceDocumentEntity);
  }

  async upsert(
    workspaceId: number,
    dataSourceId: number,
    document: DocumentToStore,
    maxDocuments: number,
  ): Promise<{ document: DataSourceDocument; created: boolean; withinLimit: boolean }> {
    // One statement writes the row and counts it when it is new (`xmax = 0`) on a free stripe;
    // only what the database decides comes back (the text may be megabytes).
    const [row] = await this.db
      .manager()
      .query<{ id: number; createdAt: Date; updatedAt: Date; created: boolean; counted: boolean }[]>(
        `WITH doc AS (
         INSERT INTO data_source_documents (workspace_id, data_source_id, document_id, title, text, text_bytes,
           source_url, tags, parents, mime_type, timestamp, hash, chunk_count)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         ON CONFLICT (data_source_id, document_id) DO UPDATE SET title = EXCLUDED.title, text = EXCLUDED.text,
           text_bytes = EXCLUDED.text_bytes, source_url = EXCLUDED.source_url, tags = EXCLUDED.tags,
           parents = EXCLUDED.parents, mime_type = EXCLUDED.mime_type, timestamp = EXCLUDED.timestamp,
           hash = EXCLUDED.hash, chunk_count = EXCLUDED.chunk_count, updated_at = now()
         RETURNING id, created_at, updated_at, (xmax = 0) AS created),
       counted AS (${countOnAStripe({ max: '$14', skipLocked: true, onlyIf: '(SELECT created FROM doc)' })})
       SELECT doc.id, doc.created_at AS "createdAt", doc.updated_at AS "updatedAt", doc.created,
         EXISTS (SELECT 1 FROM counted) AS counted
       FROM doc`,
        [
          workspaceId,
          dataSourceId,
          document.documentId,
          document.title,
          document.text,
          document.textBytes,
          document.sourceUrl,
          document.tags,
          document.parents,
          document.mimeType,
          document.timestamp,
          document.hash,
          document.chunkCount,
          maxDocuments,
        ],
      );
    const { id, createdAt, updatedAt, created, counted } = row;
    const withinLimit =
      !created || counted || (await this.countOnAnyStripe(workspaceId, dataSourceId, maxDocuments));
    return { document: { ...document, id, dataSourceId, createdAt, updatedAt }, created, withinLimit };
  }

  /** When every stripe with room was held by another transaction: waits for one of them. */
  private async countOnAnyStripe(workspaceId: number, dataSourceId: number, max: number): Promise<boolean> {
    const [rows] = await this.db
      .manager()
      .query<[unknown[], number]>(countOnAStripe({ max: '$3', skipLocked: false }), [
        workspaceId,
        dataSourceId,
        max,
      ]);
    return rows.length > 0;
  }

  async find(
    workspaceId: number,
    dataSourceId: number,
    documentId: string,
  ): Promise<DataSourceDocument | null> {
    const row = await this.rows.findOneBy({ workspaceId, dataSourceId, documentId });
    return row && toDocument(row);
  }

  async count(workspaceId: number, dataSourceId: number): Promise<number> {
    const [{ total }] = await this.rows.manager.query<{ total: number }[]>(
      `SELECT COALESCE(SUM(count), 0)::int AS total FROM data_source_document_counts
       WHERE workspace_id = $1 AND data_source_id = $2`,
      [workspaceId, dataSourceId],
    );
    return total;
  }

  async list(
    workspaceId: number,
    dataSourceId: number,
    page: { afterId: number; limit: number },
  ): Promise<DocumentSummary[]> {
    const rows = await this.rows
      .createQueryBuilder('d')
      .select()
      .where('d.workspace_id = :workspaceId AND d.data_source_id = :dataSourceId AND d.id > :afterId', {
        workspaceId,
        dataSourceId,
        afterId: page.afterId,
      })
      .orderBy('d.id', 'ASC')
      .limit(page.limit)
      .getMany();
    return rows.map(toSummary);
  }

  async findSummaries(
    workspaceId: number,
    dataSourceId: number,
    documentIds: string[],
  ): Promise<DocumentSummary[]> {
    if (documentIds.length === 0) return [];
    const rows = await this.db.manager().query<DataSourceDocumentEntity[]>(
      `SELECT ${SUMMARY_COLUMNS} FROM data_source_documents
       WHERE workspace_id = $1 AND data_source_id = $2 AND document_id = ANY($3::text[])`,
      [workspaceId, dataSourceId, documentIds],
    );
    return rows.map(toSummary);
  }

  async findTexts(
    workspaceId: number,
    dataSourceId: number,
    documentIds: string[],
  ): Promise<Map<string, string>> {
    if (documentIds.length === 0) return new Map();
    const rows = await this.db.manager().query<{ documentId: string; text: string }[]>(
      `SELECT document_id AS "documentId", text FROM data_source_documents
       WHERE workspace_id = $1 AND data_source_id = $2 AND document_id = ANY($3::text[])`,
      [workspaceId, dataSourceId, documentIds],
    );
    return new Map(rows.map((row) => [row.documentId, row.text]));
  }

  async delete(workspaceId: number, dataSourceId: number, documentId: string): Promise<boolean> {
    // One statement: the row goes and one stripe of its data source counts one less.
    const [row] = await this.db.manager().query<{ deleted: number }[]>(
      `WITH gone AS (DELETE FROM data_source_documents
         WHERE workspace_id = $1 AND data_source_id = $2 AND document_id = $3 RETURNING 1),
       counted AS (UPDATE data_source_document_counts c SET count = c.count - 1
         FROM (SELECT stripe FROM data_source_document_counts
           WHERE workspace_id = $1 AND data_source_id = $2 AND count > 0 AND EXISTS (SELECT 1 FROM gone)
           ORDER BY count DESC LIMIT 1 FOR UPDATE) held
         WHERE c.data_source_id = $2 AND c.stripe = held.stripe RETURNING 1)
       SELECT (SELECT count(*) FROM gone)::int AS deleted`,
      [workspaceId, dataSourceId, documentId],
    );
    return row.deleted > 0;
  }

  async recent(workspaceId: number, scopes: DocumentScope[], limit: number): Promise<DataSourceDocument[]> {
    if (scopes.length === 0) return [];
    // One branch per scope: a data source is read whole or under its parents (`&&`: any shared).
    const values: unknown[] = [workspaceId, limit];
    const branches = scopes.map((scope) => {
      values.push(scope.dataSourceId, scope.parentsIn);
      const ds = `$${values.length - 1}`;
      const parents = `$${values.length}::text[]`;
      return `(SELECT ${COLUMNS} FROM data_source_documents
        WHERE workspace_id = $1 AND data_source_id = ${ds} AND (${parents} IS NULL OR parents && ${parents})
        ORDER BY timestamp DESC LIMIT $2)`;
    });
    const rows = await this.db
      .manager()
      .query<DataSourceDocumentEntity[]>(
        `SELECT * FROM (${branches.join(' UNION ALL ')}) d ORDER BY timestamp DESC, id DESC LIMIT $2`,
        values,
      );
    return rows.map(toDocument);
  }
}
