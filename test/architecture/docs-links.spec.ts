import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = process.cwd();

/** The project's documentation: the README, every page under docs/, and the benchmarks' page. */
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => join('docs', path)),
  join('bench', 'README.md'),
].sort();

const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The text outside fenced blocks, where a `#` line is a comment, not a heading. */
const outsideFences = (markdown: string) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** The text outside code: links shown inside fences or backticks are examples, not links. */
const prose = (markdown: string) => outsideFences(markdown).replace(/`[^`\n]*`/g, 'code');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (markdown: string) =>
  new Set([...outsideFences(markdown).matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => anchor(match[1])));

/** Every inline link `[text](target)` whose target is a path in this repository. */
function relativeLinks(path: string): { from: string; target: string }[] {
  return [...prose(read(path)).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => ({ from: path, target }));
}

/** Where a link leads: a missing file or heading, or nothing when it is sound. */
function brokenTarget({ from, target }: { from: string; target: string }): string | null {
  const [file, fragment] = target.split('#', 2);
  const path = file === '' ? from : relative(root, join(root, dirname(from), decodeURIComponent(file)));
  if (path.startsWith('..') || !existsSync(join(root, path))) return `no file ${path}`;
  if (fragment === undefined || !path.endsWith('.md') || statSync(join(root, path)).isDirectory())
    return null;
  return anchorsOf(read(path)).has(fragment.toLowerCase()) ? null : `no heading #${fragment} in ${path}`;
}

describe('the documentation', () => {
  it('covers the README, the guides and decisions under docs/ and the benchmarks', () => {
    expect(documents).toEqual(
      expect.arrayContaining([
        'README.md',
        join('bench', 'README.md'),
        join('docs', 'walkthrough.md'),
        join('docs', 'decisions', 'platform.md'),
      ]),
    );
  });

  it('links only to files (and headings) that exist', () => {
    const links = documents.flatMap(relativeLinks);
    expect(links.length).toBeGreaterThan(documents.length);
    const broken = links
      .map((link) => ({ ...link, problem: brokenTarget(link) }))
      .filter((link) => link.problem !== null)
      .map(({ from, target, problem }) => `${from}: (${target}) ${problem}`);
    expect(broken).toEqual([]);
  });

  it('links from the README to every page under docs/ and to the benchmarks', () => {
    const linked = new Set(relativeLinks('README.md').map(({ target }) => join(target.split('#')[0])));
    expect(documents.filter((path) => path !== 'README.md' && !linked.has(path))).toEqual([]);
  });

  it('keeps the README to one screen of entry: at most 250 lines', () => {
    expect(read('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });
});
