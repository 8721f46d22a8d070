import { MigrationInterface, QueryRunner } from 'typeorm';

export class Documents1795412763574 implements MigrationInterface {
  name = 'Documents1795412763574';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "data_source_documents" ("id" SERIAL NOT NULL, "workspace_id" integer NOT NULL, "data_source_id" integer NOT NULL, "document_id" character varying(512) NOT NULL, "title" character varying(512) NOT NULL, "text" text NOT NULL, "text_bytes" integer NOT NULL, "source_url" character varying(2048), "tags" text array NOT NULL, "parents" text array NOT NULL, "mime_type" character varying(128) NOT NULL, "timestamp" bigint NOT NULL, "hash" character varying(64) NOT NULL, "chunk_count" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8415394eac96f083c590e46894d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_3f2d8e93690fb92e8aa3233768" ON "data_source_documents"  ("workspace_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_data_source_documents_data_source_document" ON "data_source_documents"  ("data_source_id", "document_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "data_source_document_chunks" ("id" BIGSERIAL NOT NULL, "workspace_id" integer NOT NULL, "data_source_id" integer NOT NULL, "document_id" integer NOT NULL, "chunk_index" integer NOT NULL, "offset" integer NOT NULL, "text" text NOT NULL, "ts_config" regconfig NOT NULL, "tsv" tsvector GENERATED ALWAYS AS (to_tsvector("ts_config", "text")) STORED, CONSTRAINT "PK_742b0760feb161365dd29996a2c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_e8cf5793294c9a3fd2f91ad712" ON "data_source_document_chunks"  ("document_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_data_source_document_chunks_tsv" ON "data_source_document_chunks" USING GIN ("tsv")`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_data_source_documents_parents" ON "data_source_documents" USING GIN ("parents")`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_sources" ADD "text_search_config" character varying(63) NOT NULL DEFAULT 'simple'`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_source_documents" ADD CONSTRAINT "FK_3f2d8e93690fb92e8aa32337689" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_source_documents" ADD CONSTRAINT "FK_15606bd7abd1a9120a28da0c3a8" FOREIGN KEY ("data_source_id") REFERENCES "data_sources"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_source_document_chunks" ADD CONSTRAINT "FK_e8cf5793294c9a3fd2f91ad7120" FOREIGN KEY ("document_id") REFERENCES "data_source_documents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "data_source_document_chunks" DROP CONSTRAINT "FK_e8cf5793294c9a3fd2f91ad7120"`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_source_documents" DROP CONSTRAINT "FK_15606bd7abd1a9120a28da0c3a8"`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_source_documents" DROP CONSTRAINT "FK_3f2d8e93690fb92e8aa32337689"`,
    );
    await queryRunner.query(`ALTER TABLE "data_sources" DROP COLUMN "text_search_config"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_data_source_documents_parents"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_data_source_document_chunks_tsv"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e8cf5793294c9a3fd2f91ad712"`);
    await queryRunner.query(`DROP TABLE "data_source_document_chunks"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_data_source_documents_data_source_document"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_3f2d8e93690fb92e8aa3233768"`);
    await queryRunner.query(`DROP TABLE "data_source_documents"`);
  }
}
