import { MigrationInterface, QueryRunner } from 'typeorm';

export class Conversations1795307110057 implements MigrationInterface {
  name = 'Conversations1795307110057';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "conversations" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "title" character varying(200), "depth" integer NOT NULL DEFAULT '0', "space_id" integer, "trigger_id" character varying(64), "metadata" jsonb NOT NULL DEFAULT '{}', "requested_space_ids" text array NOT NULL DEFAULT '{}', "has_error" boolean NOT NULL DEFAULT false, "next_rank" integer NOT NULL DEFAULT '0', "parent_conversation_id" integer, "source_message_id" integer, "branched_at" TIMESTAMP WITH TIME ZONE, "forked_by_user_id" integer, "file_copy_status" character varying(16), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ee34f4f7ced4ec8681f26bf04ef" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_6dad1c387c6975fd6ad8c8d5fd" ON "conversations"  ("parent_conversation_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_eec47b0d71a835a2f3aa4efefa" ON "conversations"  ("workspace_id", "s_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "conversation_participants" ("conversation_id" integer NOT NULL, "user_id" integer NOT NULL, "workspace_id" integer NOT NULL, "last_read_at" TIMESTAMP WITH TIME ZONE, "action_required" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_fdcd6405d74e797f10fa8360338" PRIMARY KEY ("conversation_id", "user_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_a0e7e7cd8c244e4a8e4c409734" ON "conversation_participants"  ("workspace_id", "user_id", "conversation_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "messages" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "conversation_id" integer NOT NULL, "rank" integer NOT NULL, "version" integer NOT NULL, "type" character varying(16) NOT NULL, "content" text NOT NULL, "user_id" integer, "mentions" jsonb, "context" jsonb, "parent_message_id" integer, "agent_s_id" character varying(32), "agent_version" integer, "status" character varying(16), "error" jsonb, "completed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_18325f38ae6de43878487eff986" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_9bbcc62bdf7164f76eda2cd6bd" ON "messages"  ("workspace_id", "agent_s_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_5f026ed2afd5de6088d4040345" ON "messages"  ("workspace_id", "s_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_1f62c49f42a12d6c4a99d6fffc" ON "messages"  ("conversation_id", "rank", "version") `,
    );
    await queryRunner.query(
      `CREATE TABLE "message_reactions" ("message_id" integer NOT NULL, "user_id" integer NOT NULL, "emoji" character varying(64) NOT NULL, "workspace_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f5a1f46b4f33ce416f9c192ab29" PRIMARY KEY ("message_id", "user_id", "emoji"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "conversation_events" ("id" BIGSERIAL NOT NULL, "workspace_id" integer NOT NULL, "conversation_id" integer NOT NULL, "type" character varying(40) NOT NULL, "payload" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d69d1aeac5bf8d33983a582653d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_31310559574268765d865ce5d6" ON "conversation_events"  ("conversation_id", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "conversations" ADD CONSTRAINT "FK_2136015a4b73fb4898773f2226f" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "conversations" ADD CONSTRAINT "FK_f348165a7d8b1e0dc980f111089" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "conversations" ADD CONSTRAINT "FK_6dad1c387c6975fd6ad8c8d5fde" FOREIGN KEY ("parent_conversation_id") REFERENCES "conversations"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "conversation_participants" ADD CONSTRAINT "FK_1559e8a16b828f2e836a2312800" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "conversation_participants" ADD CONSTRAINT "FK_377d4041a495b81ee1a85ae026f" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "messages" ADD CONSTRAINT "FK_3bc55a7c3f9ed54b520bb5cfe23" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "messages" ADD CONSTRAINT "FK_830a3c1d92614d1495418c46736" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "message_reactions" ADD CONSTRAINT "FK_ce61e365d81a9dfc15cd36513b0" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "message_reactions" ADD CONSTRAINT "FK_b6d3eda2f99b64016d6a4cf112f" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "message_reactions" DROP CONSTRAINT "FK_b6d3eda2f99b64016d6a4cf112f"`,
    );
    await queryRunner.query(
      `ALTER TABLE "message_reactions" DROP CONSTRAINT "FK_ce61e365d81a9dfc15cd36513b0"`,
    );
    await queryRunner.query(`ALTER TABLE "messages" DROP CONSTRAINT "FK_830a3c1d92614d1495418c46736"`);
    await queryRunner.query(`ALTER TABLE "messages" DROP CONSTRAINT "FK_3bc55a7c3f9ed54b520bb5cfe23"`);
    await queryRunner.query(
      `ALTER TABLE "conversation_participants" DROP CONSTRAINT "FK_377d4041a495b81ee1a85ae026f"`,
    );
    await queryRunner.query(
      `ALTER TABLE "conversation_participants" DROP CONSTRAINT "FK_1559e8a16b828f2e836a2312800"`,
    );
    await queryRunner.query(`ALTER TABLE "conversations" DROP CONSTRAINT "FK_6dad1c387c6975fd6ad8c8d5fde"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP CONSTRAINT "FK_f348165a7d8b1e0dc980f111089"`);
    await queryRunner.query(`ALTER TABLE "conversations" DROP CONSTRAINT "FK_2136015a4b73fb4898773f2226f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_31310559574268765d865ce5d6"`);
    await queryRunner.query(`DROP TABLE "conversation_events"`);
    await queryRunner.query(`DROP TABLE "message_reactions"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1f62c49f42a12d6c4a99d6fffc"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_5f026ed2afd5de6088d4040345"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_9bbcc62bdf7164f76eda2cd6bd"`);
    await queryRunner.query(`DROP TABLE "messages"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a0e7e7cd8c244e4a8e4c409734"`);
    await queryRunner.query(`DROP TABLE "conversation_participants"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_eec47b0d71a835a2f3aa4efefa"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_6dad1c387c6975fd6ad8c8d5fd"`);
    await queryRunner.query(`DROP TABLE "conversations"`);
  }
}
