import { MigrationInterface, QueryRunner } from 'typeorm';

export class WakeUps1795310327396 implements MigrationInterface {
  name = 'WakeUps1795310327396';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "wakeups" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "conversation_id" integer NOT NULL, "owner_id" integer NOT NULL, "agent_s_id" character varying(32) NOT NULL, "schedule_type" character varying(16) NOT NULL, "fire_at" TIMESTAMP WITH TIME ZONE, "cron" character varying(128), "timezone" character varying(64), "reason" text NOT NULL, "status" character varying(16) NOT NULL, "fire_count" integer NOT NULL DEFAULT '0', "max_fires" integer NOT NULL, "next_fire_at" TIMESTAMP WITH TIME ZONE, "attempts" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_aed10b1dd4ea1d067891fb2357c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_2183a3acbac779eceed42e1ba6" ON "wakeups"  ("s_id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_77298897b1ad89ef8d0aec8b2f" ON "wakeups"  ("workspace_id", "conversation_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "wakeups" ADD CONSTRAINT "FK_a891973bd145919185a6ffe1122" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "wakeups" ADD CONSTRAINT "FK_a616560eaf3f6792c6739c6d46b" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "wakeups" ADD CONSTRAINT "FK_7f79407659dc03355d79077f852" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_wakeups_due" ON "wakeups" ("next_fire_at") WHERE status = 'scheduled'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_wakeups_one_scheduled" ON "wakeups" ("conversation_id") WHERE status = 'scheduled'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_wakeups_one_scheduled"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_wakeups_due"`);
    await queryRunner.query(`ALTER TABLE "wakeups" DROP CONSTRAINT "FK_7f79407659dc03355d79077f852"`);
    await queryRunner.query(`ALTER TABLE "wakeups" DROP CONSTRAINT "FK_a616560eaf3f6792c6739c6d46b"`);
    await queryRunner.query(`ALTER TABLE "wakeups" DROP CONSTRAINT "FK_a891973bd145919185a6ffe1122"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_77298897b1ad89ef8d0aec8b2f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_2183a3acbac779eceed42e1ba6"`);
    await queryRunner.query(`DROP TABLE "wakeups"`);
  }
}
