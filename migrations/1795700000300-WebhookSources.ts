import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook sources, their views in spaces, the signed deliveries and their outcome per trigger, with
 * the constraint names the entities give.
 */
export class WebhookSources1795700000300 implements MigrationInterface {
  name = 'WebhookSources1795700000300';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_sources" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "name" character varying(255) NOT NULL, "provider" character varying(16), "secret" character varying(256) NOT NULL, "signature_algorithm" character varying(16) NOT NULL, "signature_header" character varying(128) NOT NULL, "timestamp_header" character varying(128), "timestamp_tolerance_seconds" integer NOT NULL, "event_header" character varying(128), "delivery_header" character varying(128), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_webhook_sources_name" UNIQUE ("workspace_id", "name"), CONSTRAINT "PK_webhook_sources" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_webhook_sources_s_id" ON "webhook_sources" ("s_id") `);
    await queryRunner.query(
      `CREATE TABLE "webhook_source_views" ("id" SERIAL NOT NULL, "s_id" character varying(32) NOT NULL, "workspace_id" integer NOT NULL, "webhook_source_id" integer NOT NULL, "space_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_webhook_source_views_space" UNIQUE ("webhook_source_id", "space_id"), CONSTRAINT "PK_webhook_source_views" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_webhook_source_views_s_id" ON "webhook_source_views" ("s_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_source_views_space" ON "webhook_source_views" ("space_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_requests" ("id" SERIAL NOT NULL, "workspace_id" integer NOT NULL, "webhook_source_id" integer NOT NULL, "delivery_id" character varying(255), "event" character varying(255), "status" character varying(16) NOT NULL, "payload" text, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_webhook_requests_delivery" UNIQUE ("webhook_source_id", "delivery_id"), CONSTRAINT "PK_webhook_requests" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_requests_pending" ON "webhook_requests" ("id") WHERE status = 'received'`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_request_triggers" ("id" SERIAL NOT NULL, "workspace_id" integer NOT NULL, "webhook_request_id" integer NOT NULL, "trigger_id" integer NOT NULL, "status" character varying(32) NOT NULL, "conversation_id" integer, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_webhook_request_triggers" UNIQUE ("webhook_request_id", "trigger_id"), CONSTRAINT "PK_webhook_request_triggers" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_request_triggers_trigger" ON "webhook_request_triggers" ("trigger_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_webhook_request_triggers_conversation" ON "webhook_request_triggers" ("conversation_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_triggers_webhook_source_view" ON "triggers" ("webhook_source_view_id") `,
    );
    const foreignKeys: [string, string, string, string, string][] = [
      ['webhook_sources', 'FK_webhook_sources_workspace', 'workspace_id', 'workspaces', 'CASCADE'],
      ['webhook_source_views', 'FK_webhook_source_views_workspace', 'workspace_id', 'workspaces', 'CASCADE'],
      [
        'webhook_source_views',
        'FK_webhook_source_views_source',
        'webhook_source_id',
        'webhook_sources',
        'CASCADE',
      ],
      ['webhook_source_views', 'FK_webhook_source_views_space', 'space_id', 'spaces', 'CASCADE'],
      ['webhook_requests', 'FK_webhook_requests_workspace', 'workspace_id', 'workspaces', 'CASCADE'],
      ['webhook_requests', 'FK_webhook_requests_source', 'webhook_source_id', 'webhook_sources', 'CASCADE'],
      [
        'webhook_request_triggers',
        'FK_webhook_request_triggers_workspace',
        'workspace_id',
        'workspaces',
        'CASCADE',
      ],
      [
        'webhook_request_triggers',
        'FK_webhook_request_triggers_request',
        'webhook_request_id',
        'webhook_requests',
        'CASCADE',
      ],
      [
        'webhook_request_triggers',
        'FK_webhook_request_triggers_trigger',
        'trigger_id',
        'triggers',
        'CASCADE',
      ],
      [
        'webhook_request_triggers',
        'FK_webhook_request_triggers_conversation',
        'conversation_id',
        'conversations',
        'SET NULL',
      ],
      [
        'triggers',
        'FK_triggers_webhook_source_view',
        'webhook_source_view_id',
        'webhook_source_views',
        'NO ACTION',
      ],
    ];
    for (const [table, name, column, target, onDelete] of foreignKeys) {
      await queryRunner.query(
        `ALTER TABLE "${table}" ADD CONSTRAINT "${name}" FOREIGN KEY ("${column}") REFERENCES "${target}"("id") ON DELETE ${onDelete} ON UPDATE NO ACTION`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "triggers" DROP CONSTRAINT "FK_triggers_webhook_source_view"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_triggers_webhook_source_view"`);
    await queryRunner.query(`DROP TABLE "webhook_request_triggers"`);
    await queryRunner.query(`DROP TABLE "webhook_requests"`);
    await queryRunner.query(`DROP TABLE "webhook_source_views"`);
    await queryRunner.query(`DROP TABLE "webhook_sources"`);
  }
}
