import { MigrationInterface, QueryRunner } from 'typeorm';

/** The version a remote tool server declares (`serverInfo.version`), kept by its synchronisation. */
export class RemoteServerVersion1795720000000 implements MigrationInterface {
  name = 'RemoteServerVersion1795720000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "remote_mcp_servers" ADD "server_version" character varying(64)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "remote_mcp_servers" DROP COLUMN "server_version"`);
  }
}
