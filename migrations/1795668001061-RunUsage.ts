import { MigrationInterface, QueryRunner } from 'typeorm';

export class RunUsage1795668001061 implements MigrationInterface {
  name = 'RunUsage1795668001061';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_runs" ADD "agent_s_id" character varying(32)`);
    await queryRunner.query(`ALTER TABLE "agent_runs" ADD "agent_version" integer`);
    await queryRunner.query(`ALTER TABLE "agent_runs" ADD "model_provider_id" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "agent_runs" ADD "model_id" character varying(128)`);
    await queryRunner.query(`ALTER TABLE "agent_runs" ADD "answered_message_id" integer`);
    await queryRunner.query(`ALTER TABLE "agent_runs" ADD "prompt_tokens" integer`);
    await queryRunner.query(`ALTER TABLE "agent_runs" ADD "completion_tokens" integer`);
    await queryRunner.query(`ALTER TABLE "agent_runs" ADD "reasoning_tokens" integer`);
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_runs_workspace_created" ON "agent_runs"  ("workspace_id", "created_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_agent_runs_workspace_created"`);
    await queryRunner.query(`ALTER TABLE "agent_runs" DROP COLUMN "reasoning_tokens"`);
    await queryRunner.query(`ALTER TABLE "agent_runs" DROP COLUMN "completion_tokens"`);
    await queryRunner.query(`ALTER TABLE "agent_runs" DROP COLUMN "prompt_tokens"`);
    await queryRunner.query(`ALTER TABLE "agent_runs" DROP COLUMN "answered_message_id"`);
    await queryRunner.query(`ALTER TABLE "agent_runs" DROP COLUMN "model_id"`);
    await queryRunner.query(`ALTER TABLE "agent_runs" DROP COLUMN "model_provider_id"`);
    await queryRunner.query(`ALTER TABLE "agent_runs" DROP COLUMN "agent_version"`);
    await queryRunner.query(`ALTER TABLE "agent_runs" DROP COLUMN "agent_s_id"`);
  }
}
