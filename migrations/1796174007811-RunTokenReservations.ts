import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunTokenReservations1796174007811 implements MigrationInterface {
  name = 'RunTokenReservations1796174007811';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "workspace_run_tokens" ("workspace_id" integer NOT NULL, "period_start" TIMESTAMP WITH TIME ZONE NOT NULL, "used_tokens" bigint NOT NULL DEFAULT '0', "reserved_tokens" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_8a1ae1dbfb7cdb7138e9c1aab8c" PRIMARY KEY ("workspace_id", "period_start"))`,
    );
    await queryRunner.query(`ALTER TABLE "agent_runs" ADD "reserved_tokens" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(
      `ALTER TABLE "workspace_run_tokens" ADD CONSTRAINT "FK_04abab2150d40ad58f2dcc64a2f" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // The months of the runs recorded so far, which the calls from now on reserve against.
    await queryRunner.query(
      `INSERT INTO "workspace_run_tokens" ("workspace_id", "period_start", "used_tokens") SELECT "workspace_id", date_trunc('month', "created_at", 'UTC'), sum(coalesce("prompt_tokens", 0) + coalesce("completion_tokens", 0)) FROM "agent_runs" GROUP BY 1, 2`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "workspace_run_tokens" DROP CONSTRAINT "FK_04abab2150d40ad58f2dcc64a2f"`,
    );
    await queryRunner.query(`ALTER TABLE "agent_runs" DROP COLUMN "reserved_tokens"`);
    await queryRunner.query(`DROP TABLE "workspace_run_tokens"`);
  }
}
