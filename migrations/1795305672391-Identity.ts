import { MigrationInterface, QueryRunner } from 'typeorm';

export class Identity1795305672391 implements MigrationInterface {
  name = 'Identity1795305672391';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "workspaces" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "name" character varying(100) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_098656ae401f3e1a4586f47fd8e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_750393e0b1a8a34c8b12c641e2" ON "workspaces"  ("s_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "users" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "email" character varying(320) NOT NULL, "username" character varying(320) NOT NULL, "first_name" character varying(200) NOT NULL, "last_name" character varying(200) NOT NULL, "full_name" character varying(200) NOT NULL, "image" character varying(2048), "provider" character varying(32) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_login_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_48529b9b7268696e68aae0762d" ON "users"  ("s_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_97672ac88f789774dd47f7c8be" ON "users"  ("email") `);
    await queryRunner.query(
      `CREATE TABLE "memberships" ("id" SERIAL NOT NULL, "workspace_id" integer NOT NULL, "user_id" integer NOT NULL, "role" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_25d28bd932097a9e90495ede7b4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_7c1e2fdfed4f6838e0c05ae505" ON "memberships"  ("user_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_b30e6ce2c364503f9840fa6440" ON "memberships"  ("workspace_id", "user_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "spaces" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "name" character varying(100) NOT NULL, "kind" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dbe542974aca57afcb60709d4c8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_9340a106b1a66fe912f947fff4" ON "spaces"  ("s_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_ed4cda1651f6ffed0643d81611" ON "spaces"  ("workspace_id") WHERE kind = 'global'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_spaces_workspace_name" ON "spaces" ("workspace_id", lower("name"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "space_members" ("space_id" integer NOT NULL, "user_id" integer NOT NULL, "workspace_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a1d79ecdb8370f1e6d3463c0926" PRIMARY KEY ("space_id", "user_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_fdb7c5ab4ad7f35ec45c08047c" ON "space_members"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "user_id" integer NOT NULL, "name" character varying(100) NOT NULL, "scopes" text array NOT NULL, "secret_hash" character(64) NOT NULL, "display_prefix" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_4c964d33de750e31bb0361e2a3" ON "api_keys"  ("s_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_fef9aa4a1cf4f8c063ac5d75f2" ON "api_keys"  ("secret_hash") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_3e8d422b1234a32bc18b08cf7c" ON "api_keys"  ("workspace_id", "user_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "memberships" ADD CONSTRAINT "FK_9b76ecf1dda18a6adec17fe71c4" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "memberships" ADD CONSTRAINT "FK_7c1e2fdfed4f6838e0c05ae5051" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "spaces" ADD CONSTRAINT "FK_727822d37f8354dbf168038744c" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "space_members" ADD CONSTRAINT "FK_8be18c70ea832ef078452698b68" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "space_members" ADD CONSTRAINT "FK_fdb7c5ab4ad7f35ec45c08047c2" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_deb68fe8625b21785d1c48283e4" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_a3baee01d8408cd3c0f89a9a973" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_a3baee01d8408cd3c0f89a9a973"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_deb68fe8625b21785d1c48283e4"`);
    await queryRunner.query(`ALTER TABLE "space_members" DROP CONSTRAINT "FK_fdb7c5ab4ad7f35ec45c08047c2"`);
    await queryRunner.query(`ALTER TABLE "space_members" DROP CONSTRAINT "FK_8be18c70ea832ef078452698b68"`);
    await queryRunner.query(`ALTER TABLE "spaces" DROP CONSTRAINT "FK_727822d37f8354dbf168038744c"`);
    await queryRunner.query(`ALTER TABLE "memberships" DROP CONSTRAINT "FK_7c1e2fdfed4f6838e0c05ae5051"`);
    await queryRunner.query(`ALTER TABLE "memberships" DROP CONSTRAINT "FK_9b76ecf1dda18a6adec17fe71c4"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_3e8d422b1234a32bc18b08cf7c"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_fef9aa4a1cf4f8c063ac5d75f2"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_4c964d33de750e31bb0361e2a3"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_fdb7c5ab4ad7f35ec45c08047c"`);
    await queryRunner.query(`DROP TABLE "space_members"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_spaces_workspace_name"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ed4cda1651f6ffed0643d81611"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_9340a106b1a66fe912f947fff4"`);
    await queryRunner.query(`DROP TABLE "spaces"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_b30e6ce2c364503f9840fa6440"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_7c1e2fdfed4f6838e0c05ae505"`);
    await queryRunner.query(`DROP TABLE "memberships"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_97672ac88f789774dd47f7c8be"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_48529b9b7268696e68aae0762d"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_750393e0b1a8a34c8b12c641e2"`);
    await queryRunner.query(`DROP TABLE "workspaces"`);
  }
}
