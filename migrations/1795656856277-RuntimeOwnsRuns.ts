import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agent runs move to the runtime's own tables: `agent_runs` takes the runner columns of
 * `messages` (one row per agent message that was run or made tool calls, its status that of the
 * message, `running` while the message is `created`), and `agent_run_actions` takes the rows of
 * `agent_message_actions` with their ids (clients hold them) and the sequence where it was, so a
 * run started before the migration goes on after it. `down` moves them back.
 */
export class RuntimeOwnsRuns1795656856277 implements MigrationInterface {
  name = 'RuntimeOwnsRuns1795656856277';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "agent_runs" ("id" SERIAL NOT NULL, "workspace_id" integer NOT NULL, "conversation_id" integer NOT NULL, "message_id" integer NOT NULL, "user_id" integer, "status" character varying(16) NOT NULL, "runner_id" character varying(64), "runner_heartbeat_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_442f7e0ec4ae860cf17edc57825" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_runs_running" ON "agent_runs"  ("runner_heartbeat_at") WHERE status = 'running'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_runs_conversation" ON "agent_runs"  ("conversation_id") `,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_agent_runs_message" ON "agent_runs"  ("message_id") `);
    await queryRunner.query(
      `CREATE TABLE "agent_run_actions" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "run_id" integer NOT NULL, "step" integer NOT NULL, "tool_call_id" character varying(128) NOT NULL, "function_call_name" character varying(64) NOT NULL, "mcp_server_name" character varying(100) NOT NULL, "tool_name" character varying(128) NOT NULL, "params" jsonb NOT NULL, "status" character varying(32) NOT NULL, "output" jsonb, "execution_duration_ms" integer, "approval_deadline" TIMESTAMP WITH TIME ZONE, "approver_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_840791de8ea2dadff2268b849de" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_run_actions_awaiting" ON "agent_run_actions"  ("approver_id") WHERE status = 'blocked_validation_required'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_run_actions_run" ON "agent_run_actions"  ("run_id", "id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_agent_run_actions_workspace_s_id" ON "agent_run_actions"  ("workspace_id", "s_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_runs" ADD CONSTRAINT "FK_b54365ad8960707516ef4f3559c" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_runs" ADD CONSTRAINT "FK_6ccb2e66d239483886158017a66" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_run_actions" ADD CONSTRAINT "FK_f1d392c4f0d5710842fa937beca" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_run_actions" ADD CONSTRAINT "FK_c59f727e922469174eafdce48e7" FOREIGN KEY ("run_id") REFERENCES "agent_runs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );

    await queryRunner.query(`INSERT INTO "agent_runs" ("workspace_id", "conversation_id", "message_id", "user_id", "status", "runner_id", "runner_heartbeat_at", "created_at", "finished_at")
      SELECT m."workspace_id", m."conversation_id", m."id", m."run_user_id",
             CASE m."status" WHEN 'created' THEN 'running' ELSE m."status" END,
             m."runner_id", m."runner_heartbeat_at", m."created_at",
             CASE WHEN m."status" = 'created' THEN NULL ELSE COALESCE(m."completed_at", m."created_at") END
        FROM "messages" m
       WHERE m."type" = 'agent_message'
         AND (m."runner_id" IS NOT NULL OR EXISTS (SELECT 1 FROM "agent_message_actions" a WHERE a."message_id" = m."id"))
       ORDER BY m."id"`);
    await queryRunner.query(`INSERT INTO "agent_run_actions" ("id", "s_id", "workspace_id", "run_id", "step", "tool_call_id", "function_call_name", "mcp_server_name", "tool_name", "params", "status", "output", "execution_duration_ms", "approval_deadline", "approver_id", "created_at")
      SELECT a."id", a."s_id", a."workspace_id", r."id", a."step", a."tool_call_id", a."function_call_name", a."mcp_server_name", a."tool_name", a."params", a."status", a."output", a."execution_duration_ms", a."approval_deadline", a."approver_id", a."created_at"
        FROM "agent_message_actions" a JOIN "agent_runs" r ON r."message_id" = a."message_id"
       ORDER BY a."id"`);
    await queryRunner.query(
      `SELECT setval('"agent_run_actions_id_seq"', s."last_value", s."is_called") FROM "agent_message_actions_id_seq" s`,
    );

    await queryRunner.query(`DROP TABLE "agent_message_actions"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_messages_running"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "runner_heartbeat_at"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "run_user_id"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP COLUMN "runner_id"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" ADD "runner_id" character varying(64)`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "run_user_id" integer`);
    await queryRunner.query(`ALTER TABLE "messages" ADD "runner_heartbeat_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "IDX_messages_running" ON "messages" ("runner_heartbeat_at") WHERE status = 'created'`,
    );
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
    await queryRunner.query(
      `ALTER TABLE "agent_message_actions" ADD CONSTRAINT "FK_1c26efae1e6b794fe7286d0dbff" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_message_actions" ADD CONSTRAINT "FK_37e3652b27441d0a84473141eab" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );

    await queryRunner.query(`UPDATE "messages" m
        SET "runner_id" = r."runner_id", "runner_heartbeat_at" = r."runner_heartbeat_at", "run_user_id" = r."user_id"
       FROM "agent_runs" r WHERE r."message_id" = m."id"`);
    await queryRunner.query(`INSERT INTO "agent_message_actions" ("id", "s_id", "workspace_id", "conversation_id", "message_id", "step", "tool_call_id", "function_call_name", "mcp_server_name", "tool_name", "params", "status", "output", "execution_duration_ms", "approval_deadline", "approver_id", "created_at")
      SELECT a."id", a."s_id", a."workspace_id", r."conversation_id", r."message_id", a."step", a."tool_call_id", a."function_call_name", a."mcp_server_name", a."tool_name", a."params", a."status", a."output", a."execution_duration_ms", a."approval_deadline", a."approver_id", a."created_at"
        FROM "agent_run_actions" a JOIN "agent_runs" r ON r."id" = a."run_id"
       ORDER BY a."id"`);
    await queryRunner.query(
      `SELECT setval('"agent_message_actions_id_seq"', s."last_value", s."is_called") FROM "agent_run_actions_id_seq" s`,
    );

    await queryRunner.query(`DROP TABLE "agent_run_actions"`);
    await queryRunner.query(`DROP TABLE "agent_runs"`);
  }
}
