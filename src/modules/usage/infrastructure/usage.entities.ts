// The budget belongs to a workspace, whose entity its foreign key needs.
import { WorkspaceEntity } from 'src/modules/identity/infrastructure/identity.entities';
import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';

/** The monthly token budget an admin set on a workspace (none: the configured default applies). */
@Entity('workspace_token_budgets')
export class WorkspaceTokenBudgetEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'int' })
  workspaceId!: number;

  @OneToOne(() => WorkspaceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: WorkspaceEntity;

  /** Read as a number by the repository (a budget may pass the 32-bit range). */
  @Column({ name: 'monthly_tokens', type: 'bigint' })
  monthlyTokens!: string;

  @Column({ name: 'updated_by', type: 'int' })
  updatedBy!: number;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}

export const USAGE_ENTITIES = [WorkspaceTokenBudgetEntity];
