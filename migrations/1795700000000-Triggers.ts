import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Written by hand, constraint names included (the entities name them): the generator stops on the
 * `tsv` generated column of the document chunks, whose expression TypeORM looks up in a metadata
 * table this database does not have.
 */
export class Triggers1795700000000 implements MigrationInterface {
  name = 'Triggers1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "triggers" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "agent_s_id" character varying(32) NOT NULL, "name" character varying(255) NOT NULL, "editor_id" integer NOT NULL, "custom_prompt" text, "status" character varying(16) NOT NULL, "origin" character varying(16) NOT NULL, "kind" character varying(16) NOT NULL, "configuration" jsonb NOT NULL, "webhook_source_view_id" integer, "execution_per_day_limit_override" integer, "next_fire_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_triggers" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_triggers_s_id" ON "triggers" ("s_id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_triggers_agent" ON "triggers" ("workspace_id", "agent_s_id") `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_triggers_due" ON "triggers" ("next_fire_at") `);
    await queryRunner.query(
      `CREATE TABLE "trigger_firings" ("id" SERIAL NOT NULL, "workspace_id" integer NOT NULL, "trigger_id" integer NOT NULL, "due_at" TIMESTAMP WITH TIME ZONE NOT NULL, "status" character varying(16) NOT NULL, "conversation_id" integer, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_trigger_firings_due" UNIQUE ("trigger_id", "due_at"), CONSTRAINT "PK_trigger_firings" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_trigger_firings_conversation" ON "trigger_firings" ("conversation_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "triggers" ADD CONSTRAINT "FK_triggers_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "triggers" ADD CONSTRAINT "FK_triggers_editor" FOREIGN KEY ("editor_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "trigger_firings" ADD CONSTRAINT "FK_trigger_firings_workspace" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "trigger_firings" ADD CONSTRAINT "FK_trigger_firings_trigger" FOREIGN KEY ("trigger_id") REFERENCES "triggers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "trigger_firings" ADD CONSTRAINT "FK_trigger_firings_conversation" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "trigger_firings"`);
    await queryRunner.query(`DROP TABLE "triggers"`);
  }
}
