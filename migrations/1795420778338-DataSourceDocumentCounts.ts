import { MigrationInterface, QueryRunner } from 'typeorm';

export class DataSourceDocumentCounts1795420778338 implements MigrationInterface {
  name = 'DataSourceDocumentCounts1795420778338';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // The generator also proposed dropping the chunks' hand-written `tsv` and `ts_config` columns,
    // which the entities cannot describe: left out.
    await queryRunner.query(
      `CREATE TABLE "data_source_document_counts" ("data_source_id" integer NOT NULL, "stripe" smallint NOT NULL, "workspace_id" integer NOT NULL, "count" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_948af97b20056170b090804352d" PRIMARY KEY ("data_source_id", "stripe"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_source_document_counts" ADD CONSTRAINT "FK_d4d5d726256492f517cc30d6a10" FOREIGN KEY ("data_source_id") REFERENCES "data_sources"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // Every data source gets its 16 stripes, its documents spread evenly over them.
    await queryRunner.query(
      `INSERT INTO "data_source_document_counts" ("data_source_id", "stripe", "workspace_id", "count")
       SELECT ds."id", s.stripe, ds."workspace_id", n.total / 16 + (s.stripe < n.total % 16)::int
       FROM "data_sources" ds
       CROSS JOIN generate_series(0, 15) AS s(stripe)
       CROSS JOIN LATERAL (SELECT count(*)::int AS total FROM "data_source_documents" d WHERE d."data_source_id" = ds."id") n`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "data_source_document_counts" DROP CONSTRAINT "FK_d4d5d726256492f517cc30d6a10"`,
    );
    await queryRunner.query(`DROP TABLE "data_source_document_counts"`);
  }
}
