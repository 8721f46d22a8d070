import { MigrationInterface, QueryRunner } from 'typeorm';

export class Files1795306807032 implements MigrationInterface {
  name = 'Files1795306807032';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "files" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "owner_s_id" character varying(32) NOT NULL, "content_type" character varying(255) NOT NULL, "file_name" character varying(255) NOT NULL, "file_size" bigint NOT NULL, "status" character varying(16) NOT NULL, "use_case" character varying(32) NOT NULL, "use_case_metadata" jsonb NOT NULL DEFAULT '{}', "version" integer NOT NULL DEFAULT '1', "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "upload_started_at" TIMESTAMP WITH TIME ZONE, "failure_reason" character varying(500), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6c16b9093a142e0e7613b04a3d9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_cf517e8c15af74a74e918ab459" ON "files"  ("s_id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_files_created_expires_at" ON "files"  ("expires_at") WHERE status = 'created'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_files_created_expires_at"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_cf517e8c15af74a74e918ab459"`);
    await queryRunner.query(`DROP TABLE "files"`);
  }
}
