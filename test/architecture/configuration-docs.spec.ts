import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIGURATIONS } from 'src/app.config';
import { Configuration } from 'src/platform/config/configuration';
import { configurationTables, generatedPart } from 'src/platform/config/configuration-docs';

const PAGE = join('docs', 'configuration.md');

interface Section {
  heading: string;
  variables: { name: string; shownDefault: string; description: string }[];
}

/** The headings and table rows of generated markdown, whatever its column padding. */
function sectionsOf(markdown: string): Section[] {
  const sections: Section[] = [];
  for (const line of markdown.split('\n')) {
    const heading = /^### `(\w+)`$/.exec(line);
    if (heading) sections.push({ heading: heading[1], variables: [] });
    const row = /^\|\s*`(\w+)`\s*\|(.*)\|(.*)\|$/.exec(line);
    if (row) {
      sections
        .at(-1)
        ?.variables.push({ name: row[1], shownDefault: row[2].trim(), description: row[3].trim() });
    }
  }
  return sections;
}

describe('docs/configuration.md', () => {
  const page = readFileSync(join(process.cwd(), PAGE), 'utf8');
  const expected: Section[] = CONFIGURATIONS.map((token) => ({
    heading: token.name,
    variables: [...token.schema.variables],
  }));

  it('has one table per configuration, each row the name, default and meaning its schema declares', () => {
    // On a failure: `npm run docs:config` rewrites the tables from the schemas.
    expect(sectionsOf(generatedPart(page))).toEqual(expected);
  });

  it('reads what it writes: the tables rendered from the schemas parse back to the schemas', () => {
    expect(sectionsOf(configurationTables(CONFIGURATIONS))).toEqual(expected);
  });

  it('names no variable outside the tables that no schema declares', () => {
    const declared = new Set(expected.flatMap((section) => section.variables.map(({ name }) => name)));
    const tableRows = [...page.matchAll(/^\|\s*`(\w+)`/gm)].map((match) => match[1]);
    expect(tableRows.filter((name) => !declared.has(name))).toEqual([]);
  });
});

describe('the configurations', () => {
  it('each declare their variables with a one-line meaning, and no name twice', () => {
    const variables = CONFIGURATIONS.flatMap((token) => token.schema.variables);
    for (const { name, description } of variables) {
      expect({ name, oneLine: description !== '' && !description.includes('\n') }).toEqual({
        name,
        oneLine: true,
      });
    }
    expect(() => Configuration.read(CONFIGURATIONS, {})).not.toThrow();
  });
});
