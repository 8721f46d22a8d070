import { MigrationInterface, QueryRunner } from 'typeorm';

/** A delivery's verified signature, unique per source: the same signed bytes are stored once. */
export class WebhookRequestSignatures1796174219063 implements MigrationInterface {
  name = 'WebhookRequestSignatures1796174219063';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_requests" ADD "signature" bytea`);
    await queryRunner.query(
      `ALTER TABLE "webhook_requests" ADD CONSTRAINT "UQ_webhook_requests_signature" UNIQUE ("webhook_source_id", "signature")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_requests" DROP CONSTRAINT "UQ_webhook_requests_signature"`);
    await queryRunner.query(`ALTER TABLE "webhook_requests" DROP COLUMN "signature"`);
  }
}
