import { MigrationInterface, QueryRunner } from 'typeorm';

export class ContentFragments1795413517290 implements MigrationInterface {
  name = 'ContentFragments1795413517290';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "files" ADD "extracted_text" text`);
    await queryRunner.query(`ALTER TABLE "files" ADD "text_bytes" integer`);
    await queryRunner.query(
      `CREATE TABLE "content_fragments" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "conversation_id" integer NOT NULL, "rank" integer NOT NULL, "version" integer NOT NULL DEFAULT '0', "title" character varying(512) NOT NULL, "content_type" character varying(255) NOT NULL, "file_s_id" character varying(32), "text" text NOT NULL, "text_bytes" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5dc2183981976d62eafc7abc935" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_content_fragments_workspace_s_id" ON "content_fragments" ("workspace_id", "s_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_content_fragments_conversation_rank" ON "content_fragments" ("conversation_id", "rank") `,
    );
    await queryRunner.query(
      `ALTER TABLE "content_fragments" ADD CONSTRAINT "FK_1b055841a97d22ed2f58b618bd9" FOREIGN KEY ("conversation_id") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // The file copy of a fork now ends `completed`, as the specification names it.
    await queryRunner.query(
      `UPDATE "conversations" SET "file_copy_status" = 'completed' WHERE "file_copy_status" = 'done'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "conversations" SET "file_copy_status" = 'done' WHERE "file_copy_status" = 'completed'`,
    );
    await queryRunner.query(
      `ALTER TABLE "content_fragments" DROP CONSTRAINT "FK_1b055841a97d22ed2f58b618bd9"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_content_fragments_conversation_rank"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_content_fragments_workspace_s_id"`);
    await queryRunner.query(`DROP TABLE "content_fragments"`);
    await queryRunner.query(`ALTER TABLE "files" DROP COLUMN "text_bytes"`);
    await queryRunner.query(`ALTER TABLE "files" DROP COLUMN "extracted_text"`);
  }
}
