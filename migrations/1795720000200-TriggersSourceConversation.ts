import { MigrationInterface, QueryRunner } from 'typeorm';

/** The conversation whose agent run created a trigger, counted by the per-conversation limit. */
export class TriggersSourceConversation1795720000200 implements MigrationInterface {
  name = 'TriggersSourceConversation1795720000200';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "triggers" ADD "source_conversation_id" integer`);
    await queryRunner.query(
      `CREATE INDEX "IDX_triggers_source_conversation" ON "triggers" ("source_conversation_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "triggers" ADD CONSTRAINT "FK_triggers_source_conversation" FOREIGN KEY ("source_conversation_id") REFERENCES "conversations"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "triggers" DROP CONSTRAINT "FK_triggers_source_conversation"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_triggers_source_conversation"`);
    await queryRunner.query(`ALTER TABLE "triggers" DROP COLUMN "source_conversation_id"`);
  }
}
