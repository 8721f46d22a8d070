import { MigrationInterface, QueryRunner } from 'typeorm';

export class DurableRunRequests1796184123675 implements MigrationInterface {
  name = 'DurableRunRequests1796184123675';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "run_requests" ("id" BIGSERIAL NOT NULL, "workspace_id" integer NOT NULL, "conversation_id" integer NOT NULL, "message_id" integer NOT NULL, "user_id" integer NOT NULL, "key_id" character varying(64) NOT NULL, "scopes" jsonb NOT NULL, "new_agent_mentions" jsonb NOT NULL, "rerun_message_ids" jsonb NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "available_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_630a9fd5cb1576f673ad65454e9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_run_requests_workspace" ON "run_requests"  ("workspace_id", "id") `,
    );
    await queryRunner.query(`ALTER TABLE "agent_runs" ADD "step_texts" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(
      `ALTER TABLE "run_requests" ADD CONSTRAINT "FK_09c36af1cd453e3b87f9302f7c8" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "run_requests" ADD CONSTRAINT "FK_3cd8fecd9ac506deaf12a3a2c4c" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "run_requests" ADD CONSTRAINT "FK_a19df5088aa8fcf5e335c17473f" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "run_requests" DROP CONSTRAINT "FK_a19df5088aa8fcf5e335c17473f"`);
    await queryRunner.query(`ALTER TABLE "run_requests" DROP CONSTRAINT "FK_3cd8fecd9ac506deaf12a3a2c4c"`);
    await queryRunner.query(`ALTER TABLE "run_requests" DROP CONSTRAINT "FK_09c36af1cd453e3b87f9302f7c8"`);
    await queryRunner.query(`ALTER TABLE "agent_runs" DROP COLUMN "step_texts"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_run_requests_workspace"`);
    await queryRunner.query(`DROP TABLE "run_requests"`);
  }
}
