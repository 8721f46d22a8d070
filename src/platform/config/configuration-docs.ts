import type { ConfigToken } from 'src/platform/config/config-schema';

/** The lines between which docs/configuration.md holds the generated tables. */
export const TABLES_BEGIN = '<!-- configuration tables: begin -->';
export const TABLES_END = '<!-- configuration tables: end -->';

/** One table per configuration, under a heading naming its class, in the order given. */
export function configurationTables(tokens: readonly ConfigToken[]): string {
  return tokens
    .map((token) =>
      [
        `### \`${token.name}\``,
        '',
        '| variable | default | meaning |',
        '| --- | --- | --- |',
        ...token.schema.variables.map(
          ({ name, shownDefault, description }) => `| \`${name}\` | ${shownDefault} | ${description} |`,
        ),
      ].join('\n'),
    )
    .join('\n\n');
}

/** The text between the markers of `page`, which must hold both, in order. */
export function generatedPart(page: string): string {
  const begin = page.indexOf(TABLES_BEGIN);
  const end = page.indexOf(TABLES_END);
  if (begin === -1 || end < begin) {
    throw new Error(`The page lacks the lines ${TABLES_BEGIN} and ${TABLES_END}, in that order.`);
  }
  return page.slice(begin + TABLES_BEGIN.length, end);
}

/** `page` with `tables` between its markers, the rest kept as written. */
export function withTables(page: string, tables: string): string {
  const part = generatedPart(page);
  const at = page.indexOf(TABLES_BEGIN) + TABLES_BEGIN.length;
  return `${page.slice(0, at)}\n\n${tables}\n\n${page.slice(at + part.length)}`;
}
