import { describe, expect, it } from '@jest/globals';
import { Linter } from 'eslint';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import tseslint from 'typescript-eslint';

interface BoundaryRules {
  boundaryBlocks: (projectRoot?: string) => Linter.Config[];
}

/** Built at run time: the build's path rewriting would otherwise rewrite these fixtures too. */
function importOf(what: string, specifier: string): string {
  return `import ${what} from '${specifier}';`;
}

/** The same blocks `npm run lint` applies, on source text placed at a path of the tree. */
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
    .map((problem) => problem.message);
}

/** The import each problem is about, once per import (several patterns may refuse the same one). */
function refused(problems: string[]): string[] {
  return [...new Set(problems.map((message) => /^'([^']+)'/.exec(message)?.[1] ?? message))];
}

describe('import boundaries (npm run lint)', () => {
  const application = 'src/modules/conversations/application/fixture.service.ts';

  it("refuses another context's domain, infrastructure and http in application code", async () => {
    const problems = await lintAt(
      application,
      [
        importOf('type { Space }', 'src/modules/identity/domain/space'),
        importOf('{ AgentEntity }', 'src/modules/agents/infrastructure/agents.entities'),
        importOf('{ FilesController }', 'src/modules/files/http/files.controller'),
      ].join('\n'),
    );
    expect(refused(problems)).toEqual([
      'src/modules/identity/domain/space',
      'src/modules/agents/infrastructure/agents.entities',
      'src/modules/files/http/files.controller',
    ]);
    expect(problems[0]).toContain('Another context is reached through its application services');
  });

  it("refuses Nest's Logger and lifecycle hooks in application code, and allows Injectable", async () => {
    const problems = await lintAt(
      application,
      importOf('{ Injectable, Logger, OnModuleInit }', '@nestjs/common'),
    );
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).toContain("'Logger' import from '@nestjs/common' is restricted");
    expect(problems.join('\n')).toContain("'OnModuleInit' import from '@nestjs/common' is restricted");
  });

  it("allows another context's application services and the context's own domain", async () => {
    const problems = await lintAt(
      application,
      [
        importOf('{ Injectable }', '@nestjs/common'),
        importOf('{ SpacesService }', 'src/modules/identity/application/spaces.service'),
        importOf('{ Conversation }', 'src/modules/conversations/domain/conversation'),
        importOf('{ Clock }', 'src/platform/clock/clock'),
      ].join('\n'),
    );
    expect(problems).toEqual([]);
  });

  it('keeps a domain on its own domain and the pure helpers of platform/', async () => {
    const problems = await lintAt(
      'src/modules/identity/domain/fixture.ts',
      [
        importOf('{ InvalidRequestError }', 'src/platform/errors/domain-error'),
        importOf('{ Message }', 'src/modules/conversations/domain/message'),
        importOf('{ Caller }', 'src/platform/auth/caller'),
        importOf('{ Injectable }', '@nestjs/common'),
      ].join('\n'),
    );
    expect(refused(problems)).toEqual([
      'src/modules/conversations/domain/message',
      'src/platform/auth/caller',
      '@nestjs/common',
    ]);
  });

  it("lets infrastructure import another context's entities for foreign keys, not its repositories", async () => {
    const problems = await lintAt(
      'src/modules/feedback/infrastructure/fixture.repository.ts',
      [
        importOf('{ MessageEntity }', 'src/modules/conversations/infrastructure/conversations.entities'),
        importOf(
          '{ TypeormMessageRepository }',
          'src/modules/conversations/infrastructure/typeorm-message.repository',
        ),
      ].join('\n'),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('typeorm-message.repository');
  });

  it('keeps the runtime on its own ports into conversations: only their events may be imported', async () => {
    const imports = [
      importOf('{ AgentMessagesService }', 'src/modules/conversations/application/agent-messages.service'),
      importOf('{ AnswerActions }', 'src/modules/conversations/application/ports/answer-actions'),
      importOf('{ ConversationsModule }', 'src/modules/conversations/conversations.module'),
      importOf('{ MessagePosted }', 'src/modules/conversations/application/conversations.events'),
      importOf('{ SpacesService }', 'src/modules/identity/application/spaces.service'),
    ].join('\n');
    const refusedImports = [
      'src/modules/conversations/application/agent-messages.service',
      'src/modules/conversations/application/ports/answer-actions',
      'src/modules/conversations/conversations.module',
    ];
    for (const file of [
      'src/modules/runtime/application/fixture.service.ts',
      'src/modules/runtime/workers/fixture.worker.ts',
      'src/modules/runtime/runtime.module.ts',
    ]) {
      const problems = await lintAt(file, imports);
      expect(refused(problems)).toEqual(refusedImports);
      expect(problems[0]).toContain('The runtime reaches conversations through its own ports');
    }
    // Its infrastructure still points foreign keys at conversations' entities.
    const entities = await lintAt(
      'src/modules/runtime/infrastructure/runtime.entities.ts',
      importOf('{ MessageEntity }', 'src/modules/conversations/infrastructure/conversations.entities'),
    );
    expect(entities).toEqual([]);
  });

  it('gives background loops their room: workers may use Nest lifecycle hooks but not TypeORM', async () => {
    const problems = await lintAt(
      'src/modules/wakeups/workers/fixture.worker.ts',
      [
        importOf('{ Logger, OnApplicationBootstrap }', '@nestjs/common'),
        importOf('{ DataSource }', 'typeorm'),
      ].join('\n'),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('TypeORM lives in infrastructure/');
  });
});
