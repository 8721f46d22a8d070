import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Names of spaces and data sources are unique per workspace after Unicode compatibility folding
 * (NFKC) and case, and hold no invisible characters. Written by hand: the indexes are expressions
 * the schema differ does not manage. Names stored before the rule are brought under it first:
 * invisible characters are removed, and of names that then collide, the oldest keeps its name
 * and the others get their sId appended.
 */
export class NormalisedNames1795395987024 implements MigrationInterface {
  name = 'NormalisedNames1795395987024';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, index] of [
      ['spaces', 'IDX_spaces_workspace_name'],
      ['data_sources', 'IDX_data_sources_workspace_name'],
    ]) {
      // Removing invisible characters can make names equal under the old index too.
      await queryRunner.query(`DROP INDEX "public"."${index}"`);
      await queryRunner.query(
        `UPDATE "${table}" SET name = CASE WHEN btrim(visible) = '' THEN 'Unnamed ' || s_id ELSE btrim(visible) END
         FROM (SELECT id AS visible_id, regexp_replace(name, $1, '', 'g') AS visible FROM "${table}") stripped
         WHERE visible_id = id AND visible <> name`,
        [INVISIBLE_CHARACTERS],
      );
      await queryRunner.query(
        `UPDATE "${table}" SET name = left(name, 100 - length(s_id) - 3) || ' (' || s_id || ')'
         FROM (SELECT id AS duplicate_id, row_number() OVER (
                 PARTITION BY workspace_id, lower(normalize(name, NFKC)) ORDER BY id) AS position
               FROM "${table}") ranked
         WHERE duplicate_id = id AND position > 1`,
      );
      await queryRunner.query(
        `CREATE UNIQUE INDEX "${index}" ON "${table}" ("workspace_id", lower(normalize("name", NFKC)))`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, index] of [
      ['data_sources', 'IDX_data_sources_workspace_name'],
      ['spaces', 'IDX_spaces_workspace_name'],
    ]) {
      await queryRunner.query(`DROP INDEX "public"."${index}"`);
      await queryRunner.query(`CREATE UNIQUE INDEX "${index}" ON "${table}" ("workspace_id", lower("name"))`);
    }
  }
}

/** The invisible characters the service refuses in names (src/platform/text/names.ts), as of this migration. */
const INVISIBLE_CHARACTERS =
  '[\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f\\u3164\\ufeff\\uffa0]';
