import { MigrationInterface, QueryRunner } from 'typeorm';

/** Why a stopped trigger stopped, on the failed firing recorded at its next due time. */
const HASHED_SCHEDULE_STOPPED =
  'Its cron uses H, which is no longer accepted (cron-parser drew other times at every reading); the trigger was disabled: give the minute and hour to enable it again.';

/**
 * Schedules stored with cron-parser's `H` before it was refused (src/platform/text/cron-calendar.ts):
 * every pass drew other times for them, and reading them now throws. An enabled trigger is disabled
 * and its next due time recorded as a failed firing that says why; a scheduled wake-up is
 * cancelled. The rule is copied here as it stands (an `H` outside the month and weekday names),
 * so that this migration does not change when the rule does. Data only: nothing to undo.
 */
export class HashedSchedulesStopped1795730004700 implements MigrationInterface {
  name = 'HashedSchedulesStopped1795730004700';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const triggers = (await queryRunner.query(
      `SELECT id, workspace_id, configuration->>'cron' AS cron, next_fire_at FROM triggers
       WHERE kind = 'schedule' AND status = 'enabled' AND configuration->>'cron' LIKE '%H%'`,
    )) as { id: number; workspace_id: number; cron: string; next_fire_at: Date | null }[];
    for (const trigger of triggers.filter((row) => isHashed(row.cron))) {
      if (trigger.next_fire_at) {
        await queryRunner.query(
          `INSERT INTO trigger_firings (workspace_id, trigger_id, due_at, status, error)
           VALUES ($1, $2, $3, 'failed', $4) ON CONFLICT DO NOTHING`,
          [trigger.workspace_id, trigger.id, trigger.next_fire_at, HASHED_SCHEDULE_STOPPED],
        );
      }
      await queryRunner.query(
        `UPDATE triggers SET status = 'disabled', next_fire_at = NULL, updated_at = now() WHERE id = $1`,
        [trigger.id],
      );
    }
    const wakeUps = (await queryRunner.query(
      `SELECT id, cron FROM wakeups WHERE schedule_type = 'cron' AND status = 'scheduled' AND cron LIKE '%H%'`,
    )) as { id: number; cron: string }[];
    const hashed = wakeUps.filter((row) => isHashed(row.cron)).map((row) => row.id);
    if (hashed.length > 0) {
      await queryRunner.query(
        `UPDATE wakeups SET status = 'cancelled', next_fire_at = NULL, updated_at = now() WHERE id = ANY($1)`,
        [hashed],
      );
    }
  }

  public async down(): Promise<void> {
    // The schedules could not be read again as they were: there is nothing to restore.
  }
}

function isHashed(cron: string): boolean {
  const fields = cron.trim().split(/\s+/);
  return fields.some((field, i) => {
    const named = i >= fields.length - 2;
    return (named ? field.replace(/[a-z]{3}/gi, '') : field).includes('H');
  });
}
