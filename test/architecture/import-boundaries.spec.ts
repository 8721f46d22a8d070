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

  it('refuses any file of another context but its api file, in every layer', async () => {
    const foreign = [
      importOf('{ SpacesService }', 'src/modules/identity/application/spaces.service'),
      importOf('type { Space }', 'src/modules/identity/domain/space'),
      importOf('{ AgentEntity }', 'src/modules/agents/infrastructure/agents.entities'),
      importOf('{ FilesController }', 'src/modules/files/http/files.controller'),
      importOf('{ FilesModule }', 'src/modules/files/files.module'),
    ].join('\n');
    for (const file of [
      application,
      'src/modules/conversations/application/views/fixture.view.ts',
      'src/modules/conversations/workers/fixture.worker.ts',
      'src/modules/conversations/http/fixture.controller.ts',
      'src/modules/conversations/conversations.module.ts',
    ]) {
      const problems = await lintAt(file, foreign);
      expect(refused(problems)).toEqual([
        'src/modules/identity/application/spaces.service',
        'src/modules/identity/domain/space',
        'src/modules/agents/infrastructure/agents.entities',
        'src/modules/files/http/files.controller',
        'src/modules/files/files.module',
      ]);
      expect(problems[0]).toContain('Another context is reached through its api file');
    }
  });

  it("refuses a context's own api file inside it: the api file imports its files", async () => {
    const problems = await lintAt(
      application,
      importOf('{ ConversationsService }', 'src/modules/conversations/conversations.api'),
    );
    expect(problems).toEqual([expect.stringContaining('importing it back makes a cycle')]);
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

  it("allows another context's api file, the context's own domain and the kernel", async () => {
    const problems = await lintAt(
      application,
      [
        importOf('{ Injectable }', '@nestjs/common'),
        importOf('{ SpacesService, type Space }', 'src/modules/identity/identity.api'),
        importOf('type { ModelProviderId }', 'src/kernel/agent-model'),
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

  it("lets infrastructure import another context's api file and entities (foreign keys), not its repositories", async () => {
    const problems = await lintAt(
      'src/modules/feedback/infrastructure/fixture.repository.ts',
      [
        importOf('{ MessageEntity }', 'src/modules/conversations/infrastructure/conversations.entities'),
        importOf('{ ConversationsService }', 'src/modules/conversations/conversations.api'),
        importOf(
          '{ TypeormMessageRepository }',
          'src/modules/conversations/infrastructure/typeorm-message.repository',
        ),
      ].join('\n'),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('typeorm-message.repository');
  });

  it('lets the composition and the entry points reach the contexts through their api files only', async () => {
    const imports = [
      importOf('{ AgentsModule, AgentStatistics }', 'src/modules/agents/agents.api'),
      importOf('{ AGENTS_ENTITIES }', 'src/modules/agents/infrastructure/agents.entities'),
      importOf('{ AgentsModule }', 'src/modules/agents/agents.module'),
      importOf('{ AgentsService }', 'src/modules/agents/application/agents.service'),
    ].join('\n');
    const composition = await lintAt('src/composition/fixture.adapter.ts', imports);
    expect(refused(composition)).toEqual([
      'src/modules/agents/infrastructure/agents.entities',
      'src/modules/agents/agents.module',
      'src/modules/agents/application/agents.service',
    ]);
    // The data source takes each context's entity list from its entities file.
    const entryPoint = await lintAt('src/app.data-source.ts', imports);
    expect(refused(entryPoint)).toEqual([
      'src/modules/agents/agents.module',
      'src/modules/agents/application/agents.service',
    ]);
  });

  it('keeps the shared kernel plain TypeScript that imports only the kernel', async () => {
    const problems = await lintAt(
      'src/kernel/fixture.ts',
      [
        importOf('type { ReasoningEffort }', 'src/kernel/agent-model'),
        importOf('type { AgentDetails }', 'src/modules/agents/agents.api'),
        importOf('{ Clock }', 'src/platform/clock/clock'),
        importOf('{ Injectable }', '@nestjs/common'),
      ].join('\n'),
    );
    expect(refused(problems)).toEqual([
      'src/modules/agents/agents.api',
      'src/platform/clock/clock',
      '@nestjs/common',
    ]);
  });

  it("lets the kernel's views take the documentation decorators, and nothing else outside the kernel", async () => {
    const problems = await lintAt(
      'src/kernel/views/fixture.view.ts',
      [
        importOf('{ ApiSchema, getSchemaPath }', '@nestjs/swagger'),
        importOf('type { WakeUpStatus }', 'src/kernel/wake-up-status'),
        importOf('{ ApiOkResponse }', '@nestjs/swagger'),
        importOf('type { WakeUp }', 'src/modules/wakeups/domain/wakeup'),
        importOf('{ IsString }', 'class-validator'),
      ].join('\n'),
    );
    expect(refused(problems)).toEqual([
      'ApiOkResponse',
      'src/modules/wakeups/domain/wakeup',
      'class-validator',
    ]);
  });

  it("lets a context's specs assemble neighbouring application services, not their domain or adapters", async () => {
    const problems = await lintAt(
      'src/modules/usage/application/fixture.spec.ts',
      [
        importOf('{ RunTreeBudget }', 'src/modules/runtime/application/run-tree-budget'),
        importOf('{ RuntimeModule }', 'src/modules/runtime/runtime.api'),
        importOf('type { AgentRun }', 'src/modules/runtime/domain/agent-run'),
        importOf(
          '{ TypeormAgentRunRepository }',
          'src/modules/runtime/infrastructure/typeorm-agent-run.repository',
        ),
      ].join('\n'),
    );
    expect(refused(problems)).toEqual([
      'src/modules/runtime/domain/agent-run',
      'src/modules/runtime/infrastructure/typeorm-agent-run.repository',
    ]);
  });

  it('keeps the runtime on its own ports into conversations: only their events may be imported', async () => {
    const imports = [
      importOf('{ AgentMessagesService }', 'src/modules/conversations/application/agent-messages.service'),
      importOf('{ AnswerActions }', 'src/modules/conversations/application/ports/answer-actions'),
      importOf('{ ConversationsModule }', 'src/modules/conversations/conversations.module'),
      importOf('{ ConversationsService }', 'src/modules/conversations/conversations.api'),
      importOf('{ MessagePosted }', 'src/modules/conversations/application/conversations.events'),
      importOf('{ SpacesService }', 'src/modules/identity/identity.api'),
    ].join('\n');
    const refusedImports = [
      'src/modules/conversations/application/agent-messages.service',
      'src/modules/conversations/application/ports/answer-actions',
      'src/modules/conversations/conversations.module',
      'src/modules/conversations/conversations.api',
    ];
    for (const file of [
      'src/modules/runtime/application/fixture.service.ts',
      'src/modules/runtime/workers/fixture.worker.ts',
      'src/modules/runtime/infrastructure/fixture.adapter.ts',
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
