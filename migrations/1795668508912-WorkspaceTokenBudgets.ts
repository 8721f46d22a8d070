import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkspaceTokenBudgets1795668508912 implements MigrationInterface {
  name = 'WorkspaceTokenBudgets1795668508912';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "workspace_token_budgets" ("workspace_id" integer NOT NULL, "monthly_tokens" bigint NOT NULL, "updated_by" integer NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_00d9410a533641597455fea2b1b" PRIMARY KEY ("workspace_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "workspace_token_budgets" ADD CONSTRAINT "FK_00d9410a533641597455fea2b1b" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "workspace_token_budgets" DROP CONSTRAINT "FK_00d9410a533641597455fea2b1b"`,
    );
    await queryRunner.query(`DROP TABLE "workspace_token_budgets"`);
  }
}
