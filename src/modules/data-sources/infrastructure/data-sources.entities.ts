import {
  SpaceEntity,
  UserEntity,
  WorkspaceEntity,
} from 'src/modules/identity/infrastructure/identity.entities';
import type { ConnectorProvider } from 'src/modules/data-sources/domain/data-source';
import type { DataSourceViewKind } from 'src/modules/data-sources/domain/data-source-view';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';

const timestamptz = { type: 'timestamptz' } as const;

/** Index names the repository maps to conflicts when a concurrent write wins. */
export const DATA_SOURCE_NAME_INDEX = 'IDX_data_sources_workspace_name';
export const VIEW_PER_SPACE_INDEX = 'IDX_data_source_views_data_source_space';

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

export const DATA_SOURCE_ENTITIES = [DataSourceEntity, DataSourceViewEntity];
