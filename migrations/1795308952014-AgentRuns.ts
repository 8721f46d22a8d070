import { MigrationInterface, QueryRunner } from 'typeorm';

export class AgentRuns1795308952014 implements MigrationInterface {
  name = 'AgentRuns1795308952014';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" ADD "runner_id" character varying(64)`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "runner_heartbeat_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "IDX_messages_running" ON "messages" ("runner_heartbeat_at") WHERE status = 'created'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_messages_running"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "runner_heartbeat_at"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "runner_id"`);
  }
}
