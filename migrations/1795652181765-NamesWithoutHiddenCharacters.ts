import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Names stored before the one rule for names (src/platform/text/names.ts) lose the characters it
 * refuses: controls, bidirectional controls and invisible characters, emoji sequences spared. A
 * name left empty becomes "Unnamed <sId>"; of names that then collide where names are unique, the
 * later gets its sId appended. A user's first and last names follow the full name. Data only:
 * there is nothing to undo. The rule is copied here as it stands, so that this migration does not
 * change when the rule does.
 */
export class NamesWithoutHiddenCharacters1795652181765 implements MigrationInterface {
  name = 'NamesWithoutHiddenCharacters1795652181765';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const { table, max, uniqueKey } of NAMED_TABLES) {
      const column = table === 'users' ? 'full_name' : 'name';
      const rows = (await queryRunner.query(
        `SELECT id, s_id, ${uniqueKey ? 'workspace_id' : 'NULL AS workspace_id'}, ${column} AS name
         FROM "${table}" WHERE ${column} ~ $1 ORDER BY id`,
        [REFUSED_CLASS],
      )) as NamedRow[];
      for (const row of rows) {
        const cleaned = visible(row.name).trim();
        // A user's full name is kept with single spaces, as `userNameParts` makes it.
        let name = (table === 'users' ? cleaned.replace(/\s+/g, ' ') : cleaned) || `Unnamed ${row.s_id}`;
        if (uniqueKey) {
          const [{ taken }] = (await queryRunner.query(
            `SELECT EXISTS (SELECT 1 FROM "${table}" WHERE workspace_id = $1 AND id <> $2
               AND ${uniqueKey('name')} = ${uniqueKey('$3::text')}) AS taken`,
            [row.workspace_id, row.id, name],
          )) as { taken: boolean }[];
          if (taken) name = `${[...name].slice(0, max - row.s_id.length - 3).join('')} (${row.s_id})`;
        }
        if (table === 'users') {
          const space = name.indexOf(' ');
          await queryRunner.query(
            'UPDATE users SET full_name = $2, first_name = $3, last_name = $4 WHERE id = $1',
            [
              row.id,
              name,
              space === -1 ? name : name.slice(0, space),
              space === -1 ? '' : name.slice(space + 1),
            ],
          );
        } else {
          await queryRunner.query(`UPDATE "${table}" SET name = $2 WHERE id = $1`, [row.id, name]);
        }
      }
    }
  }

  public async down(): Promise<void> {
    // The removed characters are not kept anywhere to put back.
  }
}

interface NamedRow {
  id: number;
  s_id: string;
  workspace_id: number | null;
  name: string;
}

const NFKC_KEY = (value: string) => `lower(normalize(${value}, NFKC))`;
const LOWER_KEY = (value: string) => `lower(${value})`;

/** Where a member names something, with the column's length and the expression names are unique by. */
const NAMED_TABLES: { table: string; max: number; uniqueKey?: (value: string) => string }[] = [
  { table: 'users', max: 200 },
  { table: 'workspaces', max: 100 },
  { table: 'spaces', max: 100, uniqueKey: NFKC_KEY },
  { table: 'api_keys', max: 100 },
  { table: 'remote_mcp_servers', max: 100 },
  { table: 'tags', max: 64, uniqueKey: LOWER_KEY },
  { table: 'skills', max: 100, uniqueKey: LOWER_KEY },
  { table: 'data_sources', max: 100, uniqueKey: NFKC_KEY },
];

/** The code points the rule refuses (Cc, Cf, the line and paragraph separators, blank letters and marks). */
const REFUSED_RANGES: [number, number][] = [
  [0x1, 0x1f],
  [0x7f, 0x9f],
  [0xad, 0xad],
  [0x34f, 0x34f],
  [0x600, 0x605],
  [0x61c, 0x61c],
  [0x6dd, 0x6dd],
  [0x70f, 0x70f],
  [0x890, 0x891],
  [0x8e2, 0x8e2],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb],
  [0x110bd, 0x110bd],
  [0x110cd, 0x110cd],
  [0x13430, 0x1343f],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0001, 0xe0001],
  [0xe0020, 0xe007f],
];

const pgCodePoint = (code: number) =>
  code > 0xffff ? `\\U${code.toString(16).padStart(8, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
/** The same set as a PostgreSQL bracket expression, to find the rows to change. */
const REFUSED_CLASS = `[${REFUSED_RANGES.map(([first, last]) =>
  first === last ? pgCodePoint(first) : `${pgCodePoint(first)}-${pgCodePoint(last)}`,
).join('')}]`;

const isRefused = (code: number) => REFUSED_RANGES.some(([first, last]) => code >= first && code <= last);
const EMOJI_ZWJ =
  /(?<=\p{Extended_Pictographic}(?:\ufe0f|\p{Emoji_Modifier})?)\u200d(?=\p{Extended_Pictographic})/gu;
const EMOJI_TAGS = /(?<=\u{1f3f4})[\u{e0020}-\u{e007e}]+\u{e007f}/gu;

/** `name` without the refused characters, but for a joiner between pictographs and a flag's tags. */
function visible(name: string): string {
  const spared = new Set<number>();
  for (const match of name.matchAll(EMOJI_ZWJ)) spared.add(match.index);
  for (const match of name.matchAll(EMOJI_TAGS)) {
    for (let offset = match.index; offset < match.index + match[0].length; offset += 1) spared.add(offset);
  }
  let kept = '';
  let offset = 0;
  for (const char of name) {
    if (spared.has(offset) || !isRefused(char.codePointAt(0)!)) kept += char;
    offset += char.length;
  }
  return kept;
}
