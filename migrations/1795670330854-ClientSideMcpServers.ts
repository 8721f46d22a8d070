import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Client-side MCP servers: registered by a member's client and alive until `expires_at`, and the
 * JSON-RPC messages queued for them with their answers (no foreign key to the server: a dropped
 * server's ended requests stay until the run waiting for them reads why).
 */
export class ClientSideMcpServers1795670330854 implements MigrationInterface {
  name = 'ClientSideMcpServers1795670330854';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "client_mcp_servers" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "user_id" integer NOT NULL, "name" character varying(100) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1c76a8b99922e2bdb4e97c74187" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_client_mcp_servers_expires" ON "client_mcp_servers"  ("expires_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_client_mcp_servers_s_id" ON "client_mcp_servers"  ("s_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_client_mcp_servers_owner" ON "client_mcp_servers"  ("workspace_id", "user_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "client_mcp_requests" ("id" BIGSERIAL NOT NULL, "server_id" integer NOT NULL, "message" jsonb NOT NULL, "expects_answer" boolean NOT NULL, "answer" jsonb, "dropped_reason" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a6f94fd51cf130e5bfff18b9ade" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_client_mcp_requests_server" ON "client_mcp_requests"  ("server_id", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "client_mcp_servers" ADD CONSTRAINT "FK_8443ae50999b75b4bbe11e75f02" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "client_mcp_servers" ADD CONSTRAINT "FK_65a6b7233f66a50a8f75e3c07a0" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "client_mcp_servers" DROP CONSTRAINT "FK_65a6b7233f66a50a8f75e3c07a0"`,
    );
    await queryRunner.query(
      `ALTER TABLE "client_mcp_servers" DROP CONSTRAINT "FK_8443ae50999b75b4bbe11e75f02"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_client_mcp_requests_server"`);
    await queryRunner.query(`DROP TABLE "client_mcp_requests"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_client_mcp_servers_owner"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_client_mcp_servers_s_id"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_client_mcp_servers_expires"`);
    await queryRunner.query(`DROP TABLE "client_mcp_servers"`);
  }
}
