import { MigrationInterface, QueryRunner } from 'typeorm';

/** The data source document a content fragment shows, when it was attached by `nodeId`. */
export class ContentFragmentNodes1795720000100 implements MigrationInterface {
  name = 'ContentFragmentNodes1795720000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "content_fragments" ADD "node" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "content_fragments" DROP COLUMN "node"`);
  }
}
