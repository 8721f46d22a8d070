import { MigrationInterface, QueryRunner } from 'typeorm';

export class DataSources1795306250750 implements MigrationInterface {
  name = 'DataSources1795306250750';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "data_sources" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "name" character varying(100) NOT NULL, "description" character varying(1000) NOT NULL, "connector_provider" character varying(32), "connector_id" character varying(64) NOT NULL, "service_api_project_id" character varying(64) NOT NULL, "assistant_default_selected" boolean NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dc70b1c6b641726739857fd938d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_f2f3c87061d78050ae990c0278" ON "data_sources"  ("s_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_data_sources_workspace_name" ON "data_sources" ("workspace_id", lower("name"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "data_source_views" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "data_source_id" integer NOT NULL, "space_id" integer NOT NULL, "kind" character varying(16) NOT NULL, "parents_in" text array, "edited_by_user_id" integer NOT NULL, "edited_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_efdf553af3dfed28964b2bf8610" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_a7c1ebdcae33ab7a8c873eb3f2" ON "data_source_views"  ("s_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_a679322ff563cde1ed59144735" ON "data_source_views"  ("edited_by_user_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_b77c14a987796070494792a4ac" ON "data_source_views"  ("space_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_eda8e5b9c820896eadb95eb320" ON "data_source_views"  ("data_source_id") WHERE kind = 'default'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_data_source_views_data_source_space" ON "data_source_views"  ("data_source_id", "space_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "data_sources" ADD CONSTRAINT "FK_c492ac30e3800cf8e1935eb91f9" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_source_views" ADD CONSTRAINT "FK_45af85f9deea01772d565c549e1" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_source_views" ADD CONSTRAINT "FK_6dc206ab67aaf54979a73351019" FOREIGN KEY ("data_source_id") REFERENCES "data_sources"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_source_views" ADD CONSTRAINT "FK_b77c14a987796070494792a4acd" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_source_views" ADD CONSTRAINT "FK_a679322ff563cde1ed59144735a" FOREIGN KEY ("edited_by_user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "data_source_views" DROP CONSTRAINT "FK_a679322ff563cde1ed59144735a"`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_source_views" DROP CONSTRAINT "FK_b77c14a987796070494792a4acd"`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_source_views" DROP CONSTRAINT "FK_6dc206ab67aaf54979a73351019"`,
    );
    await queryRunner.query(
      `ALTER TABLE "data_source_views" DROP CONSTRAINT "FK_45af85f9deea01772d565c549e1"`,
    );
    await queryRunner.query(`ALTER TABLE "data_sources" DROP CONSTRAINT "FK_c492ac30e3800cf8e1935eb91f9"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_data_source_views_data_source_space"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_eda8e5b9c820896eadb95eb320"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_b77c14a987796070494792a4ac"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a679322ff563cde1ed59144735"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a7c1ebdcae33ab7a8c873eb3f2"`);
    await queryRunner.query(`DROP TABLE "data_source_views"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_data_sources_workspace_name"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_f2f3c87061d78050ae990c0278"`);
    await queryRunner.query(`DROP TABLE "data_sources"`);
  }
}
