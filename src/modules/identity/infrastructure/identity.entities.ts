import type { Role } from 'src/platform/auth/caller';
import type { Scope } from 'src/platform/auth/scopes';
import type { SpaceKind } from 'src/modules/identity/domain/space';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

const timestamptz = { type: 'timestamptz' } as const;

@Entity('workspaces')
export class WorkspaceEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index({ unique: true })
  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index({ unique: true })
  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  /** Stored normalised (trimmed, lower case). */
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'varchar', length: 320 })
  username!: string;

  @Column({ name: 'first_name', type: 'varchar', length: 200 })
  firstName!: string;

  @Column({ name: 'last_name', type: 'varchar', length: 200 })
  lastName!: string;

  @Column({ name: 'full_name', type: 'varchar', length: 200 })
  fullName!: string;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  image!: string | null;

  @Column({ type: 'varchar', length: 32 })
  provider!: string;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'last_login_at', ...timestamptz, nullable: true })
  lastLoginAt!: Date | null;
}

@Entity('memberships')
@Index(['workspaceId', 'userId'], { unique: true })
@Index(['userId'])
export class MembershipEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ name: 'user_id', type: 'int' })
  userId!: number;

  @Column({ type: 'varchar', length: 16 })
  role!: Role;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

@Entity('spaces')
@Index(['workspaceId'], { unique: true, where: "kind = 'global'" })
@Index('IDX_spaces_workspace_name', { synchronize: false })
export class SpaceEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index({ unique: true })
  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: SpaceKind;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

@Entity('space_members')
@Index(['userId'])
export class SpaceMemberEntity {
  @PrimaryColumn({ name: 'space_id', type: 'int' })
  spaceId!: number;

  @PrimaryColumn({ name: 'user_id', type: 'int' })
  userId!: number;

  @ManyToOne(() => SpaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id' })
  space?: SpaceEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;
}

@Entity('api_keys')
@Index(['workspaceId', 'userId'])
export class ApiKeyEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index({ unique: true })
  @Column({ name: 's_id', type: 'varchar', length: 32 })
  sId!: string;

  @Column({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @Column({ name: 'user_id', type: 'int' })
  userId!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'text', array: true })
  scopes!: Scope[];

  @Index({ unique: true })
  @Column({ name: 'secret_hash', type: 'char', length: 64 })
  secretHash!: string;

  @Column({ name: 'display_prefix', type: 'varchar', length: 16 })
  displayPrefix!: string;

  @ManyToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ name: 'created_at', ...timestamptz, default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', ...timestamptz, nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', ...timestamptz, nullable: true })
  revokedAt!: Date | null;
}

export const IDENTITY_ENTITIES = [
  WorkspaceEntity,
  UserEntity,
  MembershipEntity,
  SpaceEntity,
  SpaceMemberEntity,
  ApiKeyEntity,
];
