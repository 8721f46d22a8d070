import { MigrationInterface, QueryRunner } from 'typeorm';

export class Agents1795306308426 implements MigrationInterface {
  name = 'Agents1795306308426';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "agent_configurations" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "version" integer NOT NULL, "version_created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "version_author_id" integer, "name" character varying(64) NOT NULL, "description" text NOT NULL, "instructions" text, "picture_url" character varying(2048) NOT NULL, "status" character varying(16) NOT NULL, "scope" character varying(16) NOT NULL, "model" jsonb NOT NULL, "actions" jsonb NOT NULL, "max_steps_per_run" integer NOT NULL, "visualization_enabled" boolean NOT NULL DEFAULT false, "template_id" character varying(64), "tag_ids" integer array NOT NULL, "skill_ids" integer array NOT NULL, CONSTRAINT "PK_425126bc507971a59e124803baf" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_00475ff45df9e5bb22b3d21734" ON "agent_configurations"  ("workspace_id", "status", "scope") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_07bba22f9e84a1d3b186811320" ON "agent_configurations"  ("workspace_id", "s_id", "version") `,
    );
    await queryRunner.query(
      `CREATE TABLE "agent_editors" ("workspace_id" integer NOT NULL, "agent_s_id" character varying(32) NOT NULL, "user_id" integer NOT NULL, CONSTRAINT "PK_609d641f20267524841dac784b0" PRIMARY KEY ("workspace_id", "agent_s_id", "user_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "agent_favorites" ("workspace_id" integer NOT NULL, "user_id" integer NOT NULL, "agent_s_id" character varying(32) NOT NULL, CONSTRAINT "PK_465df9021c52e1ac43ac9d27173" PRIMARY KEY ("workspace_id", "user_id", "agent_s_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "tags" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "name" character varying(64) NOT NULL, "kind" character varying(16) NOT NULL, CONSTRAINT "PK_e7dc17249a1148a1970748eda99" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_263825fef04649bd14e4bc2be2" ON "tags"  ("s_id") `);
    await queryRunner.query(
      `CREATE TABLE "skills" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "name" character varying(100) NOT NULL, "description" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0d3212120f4ecedf90864d7e298" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_e85c194d2a4419e395d0a253da" ON "skills"  ("s_id") `);
    await queryRunner.query(
      `CREATE TABLE "remote_mcp_servers" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "name" character varying(100) NOT NULL, "url" character varying(2048) NOT NULL, "description" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_07ebd38561d736e59081d886e0c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_43fd3dc50a01bf67d712370c4d" ON "remote_mcp_servers"  ("s_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_03e7166193c7ad1d9e7b19e8e5" ON "remote_mcp_servers"  ("workspace_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "mcp_server_views" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "mcp_server_id" integer NOT NULL, "space_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_287e0648f8426f53b8290a68751" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_ad4ae4418c8dd420e7f28e5a46" ON "mcp_server_views"  ("s_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_602de636044571b409f66eb66b" ON "mcp_server_views"  ("workspace_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_d1a181ef5efaffbc9db7c04915" ON "mcp_server_views"  ("mcp_server_id", "space_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_configurations" ADD CONSTRAINT "FK_6ade20bb44bac510b7004ddb897" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_configurations" ADD CONSTRAINT "FK_0d9c13612de11bfce3e68a52891" FOREIGN KEY ("version_author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_editors" ADD CONSTRAINT "FK_6b076d15c96633ab51a526ac670" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_editors" ADD CONSTRAINT "FK_f80c7766bb19d70146799248148" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_favorites" ADD CONSTRAINT "FK_874e85d0dad8916938ee5bfa2e5" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_favorites" ADD CONSTRAINT "FK_e7c0d36be9b6a7b6e0420988aca" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tags" ADD CONSTRAINT "FK_3352c57d71fe58f703b8966caee" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "skills" ADD CONSTRAINT "FK_36dc87c93505f0a479f7f47e9a5" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "remote_mcp_servers" ADD CONSTRAINT "FK_03e7166193c7ad1d9e7b19e8e50" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "mcp_server_views" ADD CONSTRAINT "FK_602de636044571b409f66eb66b6" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "mcp_server_views" ADD CONSTRAINT "FK_0bdac3a14190dd894fb5f99e169" FOREIGN KEY ("mcp_server_id") REFERENCES "remote_mcp_servers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "mcp_server_views" ADD CONSTRAINT "FK_e07ed5415b126ddc63004d19092" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_agent_configurations_live_name" ON "agent_configurations" ("workspace_id", lower("name")) WHERE status <> 'archived'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_tags_workspace_name" ON "tags" ("workspace_id", lower("name"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_skills_workspace_name" ON "skills" ("workspace_id", lower("name"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_skills_workspace_name"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_tags_workspace_name"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_agent_configurations_live_name"`);
    await queryRunner.query(
      `ALTER TABLE "mcp_server_views" DROP CONSTRAINT "FK_e07ed5415b126ddc63004d19092"`,
    );
    await queryRunner.query(
      `ALTER TABLE "mcp_server_views" DROP CONSTRAINT "FK_0bdac3a14190dd894fb5f99e169"`,
    );
    await queryRunner.query(
      `ALTER TABLE "mcp_server_views" DROP CONSTRAINT "FK_602de636044571b409f66eb66b6"`,
    );
    await queryRunner.query(
      `ALTER TABLE "remote_mcp_servers" DROP CONSTRAINT "FK_03e7166193c7ad1d9e7b19e8e50"`,
    );
    await queryRunner.query(`ALTER TABLE "skills" DROP CONSTRAINT "FK_36dc87c93505f0a479f7f47e9a5"`);
    await queryRunner.query(`ALTER TABLE "tags" DROP CONSTRAINT "FK_3352c57d71fe58f703b8966caee"`);
    await queryRunner.query(`ALTER TABLE "agent_favorites" DROP CONSTRAINT "FK_e7c0d36be9b6a7b6e0420988aca"`);
    await queryRunner.query(`ALTER TABLE "agent_favorites" DROP CONSTRAINT "FK_874e85d0dad8916938ee5bfa2e5"`);
    await queryRunner.query(`ALTER TABLE "agent_editors" DROP CONSTRAINT "FK_f80c7766bb19d70146799248148"`);
    await queryRunner.query(`ALTER TABLE "agent_editors" DROP CONSTRAINT "FK_6b076d15c96633ab51a526ac670"`);
    await queryRunner.query(
      `ALTER TABLE "agent_configurations" DROP CONSTRAINT "FK_0d9c13612de11bfce3e68a52891"`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_configurations" DROP CONSTRAINT "FK_6ade20bb44bac510b7004ddb897"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_d1a181ef5efaffbc9db7c04915"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_602de636044571b409f66eb66b"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ad4ae4418c8dd420e7f28e5a46"`);
    await queryRunner.query(`DROP TABLE "mcp_server_views"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_03e7166193c7ad1d9e7b19e8e5"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_43fd3dc50a01bf67d712370c4d"`);
    await queryRunner.query(`DROP TABLE "remote_mcp_servers"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e85c194d2a4419e395d0a253da"`);
    await queryRunner.query(`DROP TABLE "skills"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_263825fef04649bd14e4bc2be2"`);
    await queryRunner.query(`DROP TABLE "tags"`);
    await queryRunner.query(`DROP TABLE "agent_favorites"`);
    await queryRunner.query(`DROP TABLE "agent_editors"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_07bba22f9e84a1d3b186811320"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_00475ff45df9e5bb22b3d21734"`);
    await queryRunner.query(`DROP TABLE "agent_configurations"`);
  }
}
