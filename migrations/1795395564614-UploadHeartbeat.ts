import { MigrationInterface, QueryRunner } from 'typeorm';

export class UploadHeartbeat1795395564614 implements MigrationInterface {
  name = 'UploadHeartbeat1795395564614';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "files" ADD "upload_heartbeat_at" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "files" DROP COLUMN "upload_heartbeat_at"`);
  }
}
