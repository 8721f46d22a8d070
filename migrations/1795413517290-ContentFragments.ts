import { MigrationInterface, QueryRunner } from 'typeorm';

export class ContentFragments1795413517290 implements MigrationInterface {
  name = 'ContentFragments1795413517290';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "files" ADD "extracted_text" text`);
    await queryRunner.query(`ALTER TABLE "files" ADD "text_bytes" integer`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "files" DROP COLUMN "text_bytes"`);
    await queryRunner.query(`ALTER TABLE "files" DROP COLUMN "extracted_text"`);
  }
}
