import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * TypeORM's bookkeeping table, as TypeORM creates it. Reading the schema, TypeORM looks a generated
 * column's expression up there (the documents' `tsv`); without the table, generating a migration
 * failed on any database.
 */
export class TypeormMetadataTable1795700000200 implements MigrationInterface {
  name = 'TypeormMetadataTable1795700000200';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE IF NOT EXISTS "typeorm_metadata" ("type" character varying NOT NULL, "database" character varying, "schema" character varying, "table" character varying, "name" character varying, "value" text)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "typeorm_metadata"`);
  }
}
