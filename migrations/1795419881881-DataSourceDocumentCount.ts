import { MigrationInterface, QueryRunner } from 'typeorm';

export class DataSourceDocumentCount1795419881881 implements MigrationInterface {
  name = 'DataSourceDocumentCount1795419881881';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // The generator also proposed dropping the chunks' hand-written `tsv` and `ts_config` columns,
    // which the entities cannot describe: left out. The count starts from the documents there are.
    await queryRunner.query(`ALTER TABLE "data_sources" ADD "document_count" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(
      `UPDATE "data_sources" ds SET "document_count" = (SELECT count(*) FROM "data_source_documents" d WHERE d."data_source_id" = ds."id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "data_sources" DROP COLUMN "document_count"`);
  }
}
