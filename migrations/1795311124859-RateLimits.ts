import { MigrationInterface, QueryRunner } from 'typeorm';

export class RateLimits1795311124859 implements MigrationInterface {
  name = 'RateLimits1795311124859';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "rate_limit_counters" ("api_key_s_id" character varying(40) NOT NULL, "window_start" TIMESTAMP WITH TIME ZONE NOT NULL, "count" integer NOT NULL, CONSTRAINT "PK_0a9faa430036a3268f1c1a068cc" PRIMARY KEY ("api_key_s_id", "window_start"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_636313f4066905a27a24e7fa7e" ON "rate_limit_counters"  ("window_start") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_636313f4066905a27a24e7fa7e"`);
    await queryRunner.query(`DROP TABLE "rate_limit_counters"`);
  }
}
