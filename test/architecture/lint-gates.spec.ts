import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Linter } from 'eslint';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import tseslint from 'typescript-eslint';

interface BoundaryRules {
  boundaryBlocks: (projectRoot?: string) => Linter.Config[];
}

/** Built at run time: the build's path rewriting would otherwise rewrite these fixtures too. */
function importOf(what: string, specifier: string): string {
  return `import ${what} from '${specifier}';`;
}

/** The cycle check as `npm run lint` runs it, in a project: its exit code and what it printed. */
async function checkCycles(projectRoot: string): Promise<{ code: number; lines: string[] }> {
  const script = join(process.cwd(), 'scripts', 'check-import-cycles.mjs');
  const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) =>
    execFile(process.execPath, [script], { cwd: projectRoot }, (error, _stdout, stderr) =>
      resolve({ code: typeof error?.code === 'number' ? error.code : error ? -1 : 0, stderr }),
    ),
  );
  return { code, lines: stderr.split('\n').filter((line) => line !== '') };
}

const HOW_TO_BREAK =
  'Break each cycle: a port bound in src/composition, or an event (docs/architecture.md, the dependency rules).';

describe('import cycle gate (npm run lint)', () => {
  let fixtures: string;

  /** Writes a small project (`src/` files and a tsconfig resolving their `src/*` imports) and checks it. */
  async function checkProject(name: string, files: Record<string, string>) {
    const root = join(fixtures, name);
    const tsconfig = { compilerOptions: { paths: { 'src/*': ['./src/*'] } } };
    for (const [path, text] of Object.entries({ ...files, 'tsconfig.json': JSON.stringify(tsconfig) })) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    return checkCycles(root);
  }

  beforeAll(async () => {
    fixtures = await mkdtemp(join(tmpdir(), 'lint-gates-'));
  });
  afterAll(() => rm(fixtures, { recursive: true, force: true }));

  it('fails on two files that import each other, a type-only import included', async () => {
    const result = await checkProject('file-cycle', {
      'src/modules/alpha/application/first.service.ts': [
        importOf('{ second }', 'src/modules/alpha/application/second.service'),
        'export const first = () => second();',
      ].join('\n'),
      'src/modules/alpha/application/second.service.ts': [
        importOf('type { first }', 'src/modules/alpha/application/first.service'),
        'export const second = (): ReturnType<typeof first> | undefined => undefined;',
      ].join('\n'),
    });
    expect(result).toEqual({
      code: 1,
      lines: [
        'File import cycle: src/modules/alpha/application/first.service.ts → src/modules/alpha/application/second.service.ts → src/modules/alpha/application/first.service.ts',
        HOW_TO_BREAK,
      ],
    });
  });

  it('fails on two contexts that import each other through different files, naming the imports', async () => {
    const result = await checkProject('context-cycle', {
      'src/modules/alpha/application/alpha.service.ts': [
        importOf('{ beta }', 'src/modules/beta/application/beta.service'),
        'export const alpha = () => beta();',
      ].join('\n'),
      'src/modules/alpha/application/alpha-usage.service.ts': 'export const usage = () => 1;',
      'src/modules/beta/application/beta.service.ts': 'export const beta = () => 2;',
      'src/modules/beta/infrastructure/beta.adapter.ts': [
        importOf('{ usage }', 'src/modules/alpha/application/alpha-usage.service'),
        'export const adapted = () => usage();',
      ].join('\n'),
    });
    expect(result).toEqual({
      code: 1,
      lines: [
        'Context import cycle among src/modules/alpha, src/modules/beta; for one: src/modules/alpha → src/modules/beta → src/modules/alpha',
        '  src/modules/alpha/application/alpha.service.ts imports src/modules/beta/application/beta.service.ts',
        '  src/modules/beta/infrastructure/beta.adapter.ts imports src/modules/alpha/application/alpha-usage.service.ts',
        HOW_TO_BREAK,
      ],
    });
  });

  it('fails on a context whose module reaches it again through the composition', async () => {
    const result = await checkProject('through-composition', {
      'src/modules/alpha/alpha.module.ts': [
        importOf('{ ports }', 'src/composition/ports'),
        'export const alphaModule = { ports };',
      ].join('\n'),
      'src/modules/alpha/application/ports/lookup.ts': 'export abstract class Lookup {}',
      'src/composition/ports.ts': [
        importOf('{ BetaLookup }', 'src/modules/beta/application/beta-lookup'),
        'export const ports = [BetaLookup];',
      ].join('\n'),
      'src/modules/beta/application/beta-lookup.ts': [
        importOf('{ Lookup }', 'src/modules/alpha/application/ports/lookup'),
        'export class BetaLookup extends Lookup {}',
      ].join('\n'),
    });
    expect(result.code).toBe(1);
    expect(result.lines[0]).toBe(
      'Context import cycle among src/composition/ports.ts, src/modules/alpha, src/modules/beta; for one: src/modules/alpha → src/composition/ports.ts → src/modules/beta → src/modules/alpha',
    );
  });

  it('passes when the composition imports both contexts and neither imports it', async () => {
    const result = await checkProject('composed', {
      'src/app.module.ts': [
        importOf('{ ports }', 'src/composition/ports'),
        importOf('{ alphaModule }', 'src/modules/alpha/alpha.module'),
        'export const app = [ports, alphaModule];',
      ].join('\n'),
      'src/modules/alpha/alpha.module.ts': 'export const alphaModule = {};',
      'src/modules/alpha/application/ports/lookup.ts': 'export abstract class Lookup {}',
      'src/composition/ports.ts': [
        importOf('{ BetaLookup }', 'src/modules/beta/application/beta-lookup'),
        'export const ports = [BetaLookup];',
      ].join('\n'),
      'src/modules/beta/application/beta-lookup.ts': [
        importOf('{ Lookup }', 'src/modules/alpha/application/ports/lookup'),
        'export class BetaLookup extends Lookup {}',
      ].join('\n'),
    });
    expect(result).toEqual({ code: 0, lines: [] });
  });

  it('passes on this project', async () => {
    expect(await checkCycles(process.cwd())).toEqual({ code: 0, lines: [] });
  });
});

describe('global module gate (npm run lint)', () => {
  const globalModule = [
    importOf('{ DynamicModule, Global, Module }', '@nestjs/common'),
    '@Global()',
    '@Module({})',
    'export class FixtureModule {',
    '  static register(): DynamicModule {',
    '    return { module: FixtureModule, global: true };',
    '  }',
    '}',
  ].join('\n');

  async function lintAt(filename: string, source: string): Promise<string[]> {
    const rules = (await import(
      pathToFileURL(join(process.cwd(), 'eslint.boundaries.mjs')).href
    )) as BoundaryRules;
    const config: Linter.Config[] = [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
      ...rules.boundaryBlocks(process.cwd()),
    ];
    return new Linter({ cwd: process.cwd() })
      .verify(source, config, { filename })
      .map((problem) => `${problem.line}: ${problem.message}`);
  }

  it('refuses @Global() and a global dynamic module in a context', async () => {
    const problems = await lintAt('src/modules/files/fixture.module.ts', globalModule);
    expect(problems).toEqual([
      expect.stringMatching(/^2: @Global\(\) is for platform modules \(src\/platform\) only/),
      expect.stringMatching(/^6: A global dynamic module is for platform modules \(src\/platform\) only/),
    ]);
  });

  it('refuses them in the composition and the app module too', async () => {
    expect(await lintAt('src/composition/fixture.module.ts', globalModule)).toHaveLength(2);
    expect(await lintAt('src/app.module.ts', globalModule)).toHaveLength(2);
  });

  it('allows them in a platform module', async () => {
    expect(await lintAt('src/platform/fixture/fixture.module.ts', globalModule)).toEqual([]);
  });

  it('keeps the ports of a context in application/ports', async () => {
    const port = 'export abstract class Lookup {}';
    expect(await lintAt('src/modules/files/application/lookup.service.ts', port)).toEqual([
      expect.stringMatching(
        /^1: A port \(an abstract class, its own DI token\) lives in application\/ports\//,
      ),
    ]);
    expect(await lintAt('src/modules/files/application/ports/lookup.ts', port)).toEqual([]);
  });

  it("keeps platform/events off the contexts' types", async () => {
    const problems = await lintAt(
      'src/platform/events/fixture.ts',
      [importOf('type { User }', 'src/modules/identity/domain/user'), 'export type Fixture = User;'].join(
        '\n',
      ),
    );
    expect(problems).toEqual([expect.stringContaining('platform/events only carries events')]);
  });
});
