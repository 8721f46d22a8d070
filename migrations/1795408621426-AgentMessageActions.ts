import { MigrationInterface, QueryRunner } from 'typeorm';

export class AgentMessageActions1795408621426 implements MigrationInterface {
  name = 'AgentMessageActions1795408621426';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "agent_message_actions" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "conversation_id" integer NOT NULL, "message_id" integer NOT NULL, "step" integer NOT NULL, "tool_call_id" character varying(128) NOT NULL, "function_call_name" character varying(64) NOT NULL, "mcp_server_name" character varying(100) NOT NULL, "tool_name" character varying(128) NOT NULL, "params" jsonb NOT NULL, "status" character varying(32) NOT NULL, "output" jsonb, "execution_duration_ms" integer, "approval_deadline" TIMESTAMP WITH TIME ZONE, "approver_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ff58c7f40851fe61c2ef8e3ae91" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_message_actions_blocked" ON "agent_message_actions"  ("conversation_id") WHERE status = 'blocked_validation_required'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_a3b7e1667d4adafe669025e99c" ON "agent_message_actions"  ("message_id", "id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_0fae345ced2522aad2138c02c1" ON "agent_message_actions"  ("workspace_id", "s_id") `,
    );
    await queryRunner.query(`ALTER TABLE "messages" ADD "run_user_id" integer`);
    await queryRunner.query(
      `ALTER TABLE "agent_message_actions" ADD CONSTRAINT "FK_1c26efae1e6b794fe7286d0dbff" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_message_actions" ADD CONSTRAINT "FK_37e3652b27441d0a84473141eab" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "agent_message_actions" DROP CONSTRAINT "FK_37e3652b27441d0a84473141eab"`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_message_actions" DROP CONSTRAINT "FK_1c26efae1e6b794fe7286d0dbff"`,
    );
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "run_user_id"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0fae345ced2522aad2138c02c1"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a3b7e1667d4adafe669025e99c"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_agent_message_actions_blocked"`);
    await queryRunner.query(`DROP TABLE "agent_message_actions"`);
  }
}
