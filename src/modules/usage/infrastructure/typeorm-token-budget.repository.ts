import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { TokenBudgetRepository } from 'src/modules/usage/application/ports/token-budget.repository';

@Injectable()
export class TypeormTokenBudgetRepository extends TokenBudgetRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  async find(workspaceId: number): Promise<number | null> {
    const [row] = await this.db.hotRead<{ monthly_tokens: number }>(
      'token_budget',
      'SELECT monthly_tokens::float8 AS monthly_tokens FROM workspace_token_budgets WHERE workspace_id = $1',
      [workspaceId],
    );
    return row ? row.monthly_tokens : null;
  }

  async save(workspaceId: number, monthlyTokens: number | null, userId: number): Promise<void> {
    if (monthlyTokens === null) {
      await this.db
        .manager()
        .query('DELETE FROM workspace_token_budgets WHERE workspace_id = $1', [workspaceId]);
      return;
    }
    await this.db.manager().query(
      `INSERT INTO workspace_token_budgets (workspace_id, monthly_tokens, updated_by, updated_at)
       VALUES ($1, $2::bigint, $3, now())
       ON CONFLICT (workspace_id) DO UPDATE
          SET monthly_tokens = EXCLUDED.monthly_tokens, updated_by = EXCLUDED.updated_by, updated_at = now()`,
      [workspaceId, monthlyTokens, userId],
    );
  }
}
