import { MigrationInterface, QueryRunner } from 'typeorm';

export class AgentRunsHoldingIndex1796177140642 implements MigrationInterface {
  name = 'AgentRunsHoldingIndex1796177140642';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_agent_runs_holding" ON "agent_runs"  ("id") WHERE reserved_tokens > 0`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_agent_runs_holding"`);
  }
}
