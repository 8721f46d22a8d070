import { MigrationInterface, QueryRunner } from 'typeorm';

export class RemoteToolServerSync1795409979977 implements MigrationInterface {
  name = 'RemoteToolServerSync1795409979977';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "remote_mcp_servers" ADD "shared_secret" text`);
    await queryRunner.query(`ALTER TABLE "remote_mcp_servers" ADD "tools" jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`ALTER TABLE "remote_mcp_servers" ADD "last_synced_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "remote_mcp_servers" ADD "last_sync_error" text`);
    await queryRunner.query(
      `ALTER TABLE "mcp_server_views" ADD "require_approval" jsonb NOT NULL DEFAULT '"never"'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "mcp_server_views" DROP COLUMN "require_approval"`);
    await queryRunner.query(`ALTER TABLE "remote_mcp_servers" DROP COLUMN "last_sync_error"`);
    await queryRunner.query(`ALTER TABLE "remote_mcp_servers" DROP COLUMN "last_synced_at"`);
    await queryRunner.query(`ALTER TABLE "remote_mcp_servers" DROP COLUMN "tools"`);
    await queryRunner.query(`ALTER TABLE "remote_mcp_servers" DROP COLUMN "shared_secret"`);
  }
}
