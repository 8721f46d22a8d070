import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reactions stored as a `:shortcode:` become its bare id (`:tada:` → `tada`), the form Dust's
 * client sends, so that both spellings are one reaction; where a member gave both, one row stays.
 * The shortcode pattern is copied from the rule as it stood. `down` gives ids their colons back.
 */
const SHORTCODE = '^:[a-z0-9_+-]{1,62}:$';

export class ReactionShortcodesAsIds1795700000100 implements MigrationInterface {
  name = 'ReactionShortcodesAsIds1795700000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM message_reactions r WHERE r.emoji ~ $1 AND EXISTS (
         SELECT 1 FROM message_reactions o WHERE o.message_id = r.message_id AND o.user_id = r.user_id
           AND o.emoji = substr(r.emoji, 2, length(r.emoji) - 2))`,
      [SHORTCODE],
    );
    await queryRunner.query(
      `UPDATE message_reactions SET emoji = substr(emoji, 2, length(emoji) - 2) WHERE emoji ~ $1`,
      [SHORTCODE],
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE message_reactions SET emoji = ':' || emoji || ':' WHERE emoji ~ '^[a-z0-9_+-]{1,62}$'`,
    );
  }
}
