import { MigrationInterface, QueryRunner } from 'typeorm';

export class Feedback1795310238783 implements MigrationInterface {
  name = 'Feedback1795310238783';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "agent_message_feedbacks" ("id" SERIAL NOT NULL, "workspace_id" integer NOT NULL, "message_id" integer NOT NULL, "user_id" integer NOT NULL, "thumb_direction" character varying(8) NOT NULL, "content" character varying(4000) NOT NULL DEFAULT '', "is_conversation_shared" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3f5bc329bbd58ac13a9ed305e31" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0115f2dd3c5f1c5d9ba39831d1" ON "agent_message_feedbacks"  ("workspace_id", "updated_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_661d2ee024153b3d6027270cb3" ON "agent_message_feedbacks"  ("message_id", "user_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_message_feedbacks" ADD CONSTRAINT "FK_3800b5d3f95ff30e07433f29899" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_message_feedbacks" ADD CONSTRAINT "FK_57e916e35bcf2e10a6a551dc49a" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_message_feedbacks" ADD CONSTRAINT "FK_f061dbf5c13c3de6add9e0dece9" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "agent_message_feedbacks" DROP CONSTRAINT "FK_f061dbf5c13c3de6add9e0dece9"`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_message_feedbacks" DROP CONSTRAINT "FK_57e916e35bcf2e10a6a551dc49a"`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_message_feedbacks" DROP CONSTRAINT "FK_3800b5d3f95ff30e07433f29899"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_661d2ee024153b3d6027270cb3"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0115f2dd3c5f1c5d9ba39831d1"`);
    await queryRunner.query(`DROP TABLE "agent_message_feedbacks"`);
  }
}
