import {
  SpaceEntity,
  UserEntity,
  WorkspaceEntity,
} from 'src/modules/identity/infrastructure/identity.entities';
import type { ConnectorProvider } from 'src/modules/data-sources/domain/data-source';
import type { DataSourceViewKind } from 'src/modules/data-sources/domain/data-source-view';
import type { HandMadeSchema } from 'src/platform/database/generate-migration';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

const timestamptz = { type: 'timestamptz' } as const;

/** Index names the repository maps to conflicts when a concurrent write wins. */
export const DATA_SOURCE_NAME_INDEX = 'IDX_data_sources_workspace_name';
export const VIEW_PER_SPACE_INDEX = 'IDX_data_source_views_data_source_space';
export const DOCUMENT_ID_INDEX = 'IDX_data_source_documents_data_source_document';

@Entity('data_sources')
// (workspace_id, lower(name)): a functional index, written by hand in the migration.
@Index(DATA_SOURCE_NAME_INDEX, { synchronize: false })
export class DataSourceEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index({ unique: true })
  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 1000 })
  description!: string;

  @Column({ name: 'connector_provider', type: 'varchar', length: 32, nullable: true })
  connectorProvider!: ConnectorProvider | null;

  @Column({ name: 'connector_id', type: 'varchar', length: 64 })
  connectorId!: string;

  @Column({ name: 'service_api_project_id', type: 'varchar', length: 64 })
  serviceApiProjectId!: string;

  @Column({ name: 'assistant_default_selected', type: 'boolean' })
  assistantDefaultSelected!: boolean;

  @Column({ name: 'text_search_config', type: 'varchar', length: 63, default: 'simple' })
  textSearchConfig!: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

@Entity('data_source_views')
@Index(VIEW_PER_SPACE_INDEX, ['dataSourceId', 'spaceId'], { unique: true })
@Index(['dataSourceId'], { unique: true, where: "kind = 'default'" })
@Index(['spaceId'])
@Index(['editedByUserId'])
export class DataSourceViewEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index({ unique: true })
  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ name: 'data_source_id', type: 'int' })
  dataSourceId!: number;

  @Column({ name: 'space_id', type: 'int' })
  spaceId!: number;

  @Column({ type: 'varchar', length: 16 })
  kind!: DataSourceViewKind;

  @Column({ name: 'parents_in', type: 'text', array: true, nullable: true })
  parentsIn!: string[] | null;

  @Column({ name: 'edited_by_user_id', type: 'int' })
  editedByUserId!: number;

  @Column({ name: 'edited_at', ...timestamptz, default: () => 'now()' })
  editedAt!: Date;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @ManyToOne(() => DataSourceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'data_source_id' })
  dataSource?: DataSourceEntity;

  @ManyToOne(() => SpaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id' })
  space?: SpaceEntity;

  /** A view names its last editor, so a user who edited views is kept (users leave by membership). */
  @ManyToOne(() => UserEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'edited_by_user_id' })
  editedBy?: UserEntity;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...timestamptz, default: () => 'now()' })
  updatedAt!: Date;
}

/** One per (data source, document id): an upsert replaces the row and its chunks together. */
@Entity('data_source_documents')
@Index(DOCUMENT_ID_INDEX, ['dataSourceId', 'documentId'], { unique: true })
@Index(['workspaceId'])
// GIN index on `parents`, matched by a view's parentsIn with `&&`: written by hand in the migration.
@Index('IDX_data_source_documents_parents', { synchronize: false })
export class DataSourceDocumentEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ name: 'data_source_id', type: 'int' })
  dataSourceId!: number;

  @Column({ name: 'document_id', type: 'varchar', length: 512 })
  documentId!: string;

  @Column({ type: 'varchar', length: 512 })
  title!: string;

  @Column({ type: 'text' })
  text!: string;

  @Column({ name: 'text_bytes', type: 'int' })
  textBytes!: number;

  @Column({ name: 'source_url', type: 'varchar', length: 2048, nullable: true })
  sourceUrl!: string | null;

  @Column({ type: 'text', array: true })
  tags!: string[];

  @Column({ type: 'text', array: true })
  parents!: string[];

  @Column({ name: 'mime_type', type: 'varchar', length: 128 })
  mimeType!: string;

  /** ms since the epoch, as the client gave it: the document's own date, not the row's. */
  @Column({ type: 'bigint' })
  timestamp!: string;

  @Column({ type: 'varchar', length: 64 })
  hash!: string;

  @Column({ name: 'chunk_count', type: 'int' })
  chunkCount!: number;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @ManyToOne(() => DataSourceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'data_source_id' })
  dataSource?: DataSourceEntity;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', ...timestamptz, default: () => 'now()' })
  updatedAt!: Date;
}

/** The chunks' columns and index that TypeORM cannot describe: `migration generate` leaves them alone. */
export const CHUNK_SEARCH_SCHEMA: HandMadeSchema = {
  table: 'data_source_document_chunks',
  columns: ['ts_config', 'tsv'],
  indexes: ['IDX_data_source_document_chunks_tsv'],
};

/**
 * The searchable pieces of a document. The migration adds two columns TypeORM cannot describe:
 * `ts_config regconfig` (the data source's configuration, a column so the expression is
 * immutable) and `tsv`, generated as `to_tsvector(ts_config, text)` and GIN-indexed. No btree on
 * `data_source_id`: with one, the planner preferred scanning a data source's every chunk to the GIN.
 */
@Entity('data_source_document_chunks')
@Index(['documentId'])
@Index('IDX_data_source_document_chunks_tsv', { synchronize: false })
export class DataSourceDocumentChunkEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ name: 'data_source_id', type: 'int' })
  dataSourceId!: number;

  @Column({ name: 'document_id', type: 'int' })
  documentId!: number;

  @Column({ name: 'chunk_index', type: 'int' })
  chunkIndex!: number;

  @Column({ name: 'offset', type: 'int' })
  offset!: number;

  @Column({ type: 'text' })
  text!: string;

  @ManyToOne(() => DataSourceDocumentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'document_id' })
  document?: DataSourceDocumentEntity;
}

/** Rows of counters per data source: concurrent creations each take their own (see below). */
export const DOCUMENT_COUNT_STRIPES = 16;

/**
 * How many documents a data source holds, split over `DOCUMENT_COUNT_STRIPES` rows so that
 * concurrent creations count on different rows: a count's row stays locked until its transaction
 * commits, and one row would make every creation wait for the commit of the one before. Stripe `i`
 * holds at most its share of the limit (`max / K`, plus one for the first `max % K` stripes), so
 * their sum never passes it; a deletion takes one off any stripe.
 */
@Entity('data_source_document_counts')
export class DataSourceDocumentCountEntity {
  @PrimaryColumn({ name: 'data_source_id', type: 'int' })
  dataSourceId!: number;

  @PrimaryColumn({ type: 'smallint' })
  stripe!: number;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ type: 'int', default: 0 })
  count!: number;

  @ManyToOne(() => DataSourceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'data_source_id' })
  dataSource?: DataSourceEntity;
}

export const DATA_SOURCE_ENTITIES = [
  DataSourceEntity,
  DataSourceViewEntity,
  DataSourceDocumentEntity,
  DataSourceDocumentChunkEntity,
  DataSourceDocumentCountEntity,
];
