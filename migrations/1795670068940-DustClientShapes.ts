import { MigrationInterface, QueryRunner } from 'typeorm';

export class DustClientShapes1795670068940 implements MigrationInterface {
  name = 'DustClientShapes1795670068940';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "mcp_server_views" ADD "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`,
    );
    await queryRunner.query(`ALTER TABLE "content_fragments" ADD "source_url" character varying(2048)`);
    await queryRunner.query(`ALTER TABLE "content_fragments" ADD "author" jsonb`);
    await queryRunner.query(`ALTER TABLE "agent_run_actions" ADD "mcp_server_id" character varying(32)`);
    await queryRunner.query(
      `ALTER TABLE "agent_run_actions" ADD "internal_mcp_server_name" character varying(100)`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_run_actions" ADD "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`,
    );
    // Rows from before: their last known change is their creation.
    await queryRunner.query(`UPDATE "mcp_server_views" SET "updated_at" = "created_at"`);
    await queryRunner.query(`UPDATE "agent_run_actions" SET "updated_at" = "created_at"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_run_actions" DROP COLUMN "updated_at"`);
    await queryRunner.query(`ALTER TABLE "agent_run_actions" DROP COLUMN "internal_mcp_server_name"`);
    await queryRunner.query(`ALTER TABLE "agent_run_actions" DROP COLUMN "mcp_server_id"`);
    await queryRunner.query(`ALTER TABLE "content_fragments" DROP COLUMN "author"`);
    await queryRunner.query(`ALTER TABLE "content_fragments" DROP COLUMN "source_url"`);
    await queryRunner.query(`ALTER TABLE "mcp_server_views" DROP COLUMN "updated_at"`);
  }
}
