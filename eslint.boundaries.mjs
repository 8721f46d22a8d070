// @ts-check
/**
 * The import boundaries of docs/architecture.md (the dependency rules), one ESLint block per context so a pattern can say
 * "another context's". `no-restricted-imports` takes the last block that matches a file, so each
 * block carries every pattern its files obey.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** What domain/, application/ and workers/ may never import: the framework edges (docs/architecture.md, the dependency rules). */
const frameworkEdges = [
  { group: ['typeorm', 'typeorm/*'], message: 'TypeORM lives in infrastructure/.' },
  { group: ['express', 'express/*', 'node:http', 'http'], message: 'HTTP lives in http/.' },
  { group: ['class-validator', 'class-transformer'], message: 'Request validation lives in http/ DTOs.' },
  {
    group: ['@nestjs/typeorm', '@nestjs/swagger', '@nestjs/platform-express'],
    message: 'Framework adapters stay out of the core.',
  },
  {
    // The typed port and decorators keep an emitter and its listeners on one payload type.
    group: ['@nestjs/event-emitter', 'eventemitter2'],
    message: 'In-process events go through InProcessEvents and its typed decorators (platform/events).',
  },
];

/** The folders of src/modules, read once: one ESLint block per context. */
function contextsOf(projectRoot) {
  return readdirSync(join(projectRoot, 'src/modules'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/** @param {string} text */
const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Contexts that reach another only through ports they own (bound in src/composition): of that
 * context, they import the typed in-process events it declares (a narrow door beside its api file,
 * which also carries the services and the module they must not reach); their infrastructure also
 * its entities, for foreign keys.
 * @type {Record<string, string[]>}
 */
const throughOwnPorts = { runtime: ['conversations'] };

/**
 * Each context's door: of another context, only its api file (`src/modules/<c>/<c>.api`), and for
 * infrastructure also its `infrastructure/*.entities` (TypeORM relations need the entity classes of
 * the tables a foreign key points to). The contexts reached through own ports have a rule of their own.
 * @param {string} context
 * @param {{ infrastructure?: boolean }} [options]
 */
function foreignFiles(context, { infrastructure = false } = {}) {
  const own = [context, ...(throughOwnPorts[context] ?? [])].map(escaped).join('|');
  const doors = ['\\1\\.api$', ...(infrastructure ? ['infrastructure/[^/]+\\.entities$'] : [])].join('|');
  return {
    regex: `^src/modules/(?!(?:${own})(?:/|$))([^/]+)(?:$|/(?!${doors}))`,
    message: infrastructure
      ? 'Another context is reached through its api file (src/modules/<context>/<context>.api); infrastructure may also import its *.entities, for foreign keys.'
      : 'Another context is reached through its api file (src/modules/<context>/<context>.api), nothing else of it.',
  };
}

/** @param {string} context */
function ownApi(context) {
  return {
    regex: `^src/modules/${escaped(context)}/${escaped(context)}\\.api$`,
    message:
      "A context's files import each other directly: its api file imports them, so importing it back makes a cycle.",
  };
}

/**
 * @param {string} context
 * @param {{ infrastructure?: boolean }} [options]
 */
function ownPortsRules(context, { infrastructure = false } = {}) {
  return (throughOwnPorts[context] ?? []).map((reached) => {
    const doors = [
      `application/${escaped(reached)}\\.events$`,
      ...(infrastructure ? [`infrastructure/${escaped(reached)}\\.entities$`] : []),
    ].join('|');
    return {
      regex: `^src/modules/${escaped(reached)}(?:$|/(?!${doors}))`,
      message: `The ${context} reaches ${reached} through its own ports (application/ports, bound in src/composition); of ${reached} it imports only the events (application/${reached}.events)${infrastructure ? ', and its infrastructure the entities' : ''}.`,
    };
  });
}

/**
 * What a context's files may import of the others. Its specs assemble the services they test with
 * the real collaborators of neighbouring contexts, so they may also take another context's
 * application files (not its domain, adapters or workers).
 * @param {string} context
 * @param {{ spec: boolean, infrastructure?: boolean }} options
 */
function contextRules(context, { spec, infrastructure = false }) {
  const first = spec ? foreignCore(context, { infrastructure }) : foreignFiles(context, { infrastructure });
  return [first, ownApi(context), ...ownPortsRules(context, { infrastructure })];
}

/**
 * @param {string} context
 * @param {{ infrastructure?: boolean }} [options]
 */
function foreignCore(context, { infrastructure = false } = {}) {
  const entities = infrastructure ? '(?!infrastructure/[^/]+\\.entities$)' : '';
  return {
    regex: `^src/modules/(?!${escaped(context)}/)[^/]+/${entities}(?:domain|infrastructure|http|workers)(?:/|$)`,
    message:
      'A spec reaches another context through its api file or application files, not its domain, adapters or workers.',
  };
}

const ownAdapters = {
  group: ['**/infrastructure', '**/http'],
  message: 'The core does not depend on adapters.',
};

/**
 * The blocks of one context, for its sources or for its specs.
 * @param {string} context
 * @param {{ spec: boolean }} kind
 */
function contextBlocks(context, { spec }) {
  const root = `src/modules/${context}`;
  const doors = contextRules(context, { spec });
  /** @param {import('eslint').Linter.Config} block */
  const of = (block) =>
    spec
      ? { ...block, files: block.files?.map((glob) => String(glob).replace(/\*\.ts$/, '*.spec.ts')) }
      : { ...block, ignores: ['**/*.spec.ts'] };
  return [
    {
      // Every file of the context (its module, configuration and api file too); the blocks below
      // narrow each layer and repeat these rules, as the last block that matches a file is the one applied.
      files: [`${root}/**/*.ts`],
      rules: { 'no-restricted-imports': ['error', { patterns: doors }] },
    },
    {
      files: [`${root}/domain/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              ...frameworkEdges,
              { group: ['@nestjs/*'], message: 'The domain is plain TypeScript.' },
              {
                group: [
                  'src/modules/*',
                  `!src/modules/${context}`,
                  `src/modules/${context}/*`,
                  `!src/modules/${context}/domain`,
                ],
                message: 'A domain imports only its own domain/.',
              },
              {
                group: ['src/platform/*', '!src/platform/errors', '!src/platform/text', '!src/platform/ids'],
                message: 'A domain imports only errors and the pure text and id helpers of platform/.',
              },
            ],
          },
        ],
      },
    },
    {
      files: [`${root}/application/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: [
              {
                name: '@nestjs/common',
                allowImportNames: ['Injectable'],
                message:
                  'Application code takes only Injectable from Nest: log through OperatorLog, and put loops and lifecycle hooks in workers/.',
              },
            ],
            patterns: [
              ...frameworkEdges,
              { group: ['@nestjs/*', '!@nestjs/common'], message: 'Application code is plain TypeScript.' },
              ownAdapters,
              ...doors,
            ],
          },
        ],
      },
    },
    {
      // A view is the one declaration of a wire shape, so it carries its documentation: of Swagger,
      // the decorators that say what a type cannot (docs/architecture.md, wire shapes).
      files: [`${root}/application/views/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: [
              {
                name: '@nestjs/swagger',
                allowImportNames: [
                  'ApiProperty',
                  'ApiPropertyOptional',
                  'ApiSchema',
                  'ApiHideProperty',
                  'getSchemaPath',
                ],
                message: 'A view takes only the documentation decorators from Swagger.',
              },
            ],
            patterns: [
              ...frameworkEdges.filter((edge) => !edge.group.includes('@nestjs/swagger')),
              {
                group: ['@nestjs/typeorm', '@nestjs/platform-express'],
                message: 'Framework adapters stay out of the core.',
              },
              {
                group: ['@nestjs/*', '!@nestjs/swagger'],
                message: 'A view is plain TypeScript and its documentation.',
              },
              ownAdapters,
              ...doors,
            ],
          },
        ],
      },
    },
    {
      // The room of background loops: Nest's lifecycle and Logger are allowed, storage and HTTP are not.
      files: [`${root}/workers/**/*.ts`],
      rules: {
        'no-restricted-imports': ['error', { patterns: [...frameworkEdges, ownAdapters, ...doors] }],
      },
    },
    {
      files: [`${root}/infrastructure/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: contextRules(context, { spec, infrastructure: true }),
          },
        ],
      },
    },
    {
      files: [`${root}/http/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              ...doors,
              {
                group: ['src/modules/*/infrastructure'],
                message: 'Controllers reach storage through application services.',
              },
            ],
          },
        ],
      },
    },
  ].map(of);
}

/** What a global module looks like, in a decorator or a dynamic module. */
const globalModuleSelectors = [
  {
    selector: "Decorator[expression.callee.name='Global']",
    message:
      '@Global() is for platform modules (src/platform) only: import the module, or bind a cross-context port in src/composition.',
  },
  {
    selector:
      "ObjectExpression:has(> Property[key.name='module']) > Property[key.name='global'][value.value=true]",
    message:
      'A global dynamic module is for platform modules (src/platform) only: import the module, or bind a cross-context port in src/composition.',
  },
];

/**
 * Only platform modules are global : a global context module hides who depends on it.
 * A port that one context declares and another answers is bound in src/composition.
 */
const globalModulesOutsidePlatform = {
  files: ['src/**/*.ts'],
  ignores: ['src/platform/**'],
  rules: { 'no-restricted-syntax': ['error', ...globalModuleSelectors] },
};

/** A context's ports are found in one folder: an abstract class of its application is a port. */
const portsInTheirFolder = {
  files: ['src/modules/*/application/**/*.ts'],
  ignores: ['src/modules/*/application/ports/**', '**/*.spec.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      ...globalModuleSelectors,
      {
        selector: 'ClassDeclaration[abstract=true]',
        message: 'A port (an abstract class, its own DI token) lives in application/ports/.',
      },
    ],
  },
};

/** The platform carries the contexts' events and ports without knowing them (docs/architecture.md, the dependency rules). */
const genericEvents = {
  files: ['src/platform/events/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['src/modules/*', 'src/composition/*'],
            message:
              'platform/events only carries events: each context declares its own in its application/.',
          },
        ],
      },
    ],
  },
};

/**
 * The composition binds one context's ports to another's answers: it takes both from their api
 * files, like any context.
 */
const compositionThroughApis = {
  files: ['src/composition/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^src/modules/([^/]+)(?:$|/(?!\\1\\.api$))',
            message:
              'The composition reaches a context through its api file (src/modules/<context>/<context>.api).',
          },
        ],
      },
    ],
  },
};

/**
 * The entry points (src/*.ts) assemble the contexts from their api files, and the data source takes
 * each context's entity list from its infrastructure/<context>.entities.
 */
const entryPointsThroughApis = {
  files: ['src/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^src/modules/([^/]+)(?:$|/(?!\\1\\.api$|infrastructure/[^/]+\\.entities$))',
            message:
              'An entry point reaches a context through its api file, and its entities (infrastructure/*.entities) for the data source.',
          },
        ],
      },
    ],
  },
};

/** The shared kernel: the types several contexts share, plain TypeScript that imports nothing else. */
const plainKernel = {
  files: ['src/kernel/**/*.ts'],
  ignores: ['src/kernel/views/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^(?!src/kernel/)',
            message: 'The kernel is plain TypeScript shared by the contexts: it imports only the kernel.',
          },
        ],
      },
    ],
  },
};

/** The kernel's views: wire shapes several contexts show, with the documentation decorators a view may use. */
const kernelViews = {
  files: ['src/kernel/views/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [
          {
            name: '@nestjs/swagger',
            allowImportNames: [
              'ApiProperty',
              'ApiPropertyOptional',
              'ApiSchema',
              'ApiHideProperty',
              'getSchemaPath',
            ],
            message: 'A view takes only the documentation decorators from Swagger.',
          },
        ],
        patterns: [
          {
            regex: '^(?!src/kernel/|@nestjs/swagger$)',
            message: 'A kernel view imports only the kernel and the documentation decorators.',
          },
        ],
      },
    ],
  },
};

/** The contexts are the folders of src/modules. */
export function boundaryBlocks(projectRoot = import.meta.dirname) {
  return [
    ...contextsOf(projectRoot).flatMap((context) => [
      ...contextBlocks(context, { spec: false }),
      ...contextBlocks(context, { spec: true }),
    ]),
    compositionThroughApis,
    entryPointsThroughApis,
    plainKernel,
    kernelViews,
    globalModulesOutsidePlatform,
    portsInTheirFolder,
    genericEvents,
  ];
}
