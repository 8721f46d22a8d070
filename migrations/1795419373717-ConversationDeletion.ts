import { MigrationInterface, QueryRunner } from 'typeorm';

export class ConversationDeletion1795419373717 implements MigrationInterface {
  name = 'ConversationDeletion1795419373717';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversations" ADD "deleted_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "conversations" DROP COLUMN "deleted_at"`);
  }
}
