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

/** A context reaches another only through its application services (and the types they export). */
function foreignInternals(context) {
  return {
    group: [
      'src/modules/*/domain',
      'src/modules/*/infrastructure',
      'src/modules/*/http',
      'src/modules/*/workers',
      `!src/modules/${context}/domain`,
    ],
    message: 'Another context is reached through its application services, not its domain or adapters.',
  };
}

/**
 * Contexts that reach another only through ports they own (bound in src/composition): of that
 * context, they import the typed in-process events it declares, nothing else. The runtime's
 * infrastructure still imports conversations' entities for its foreign keys (rule of infrastructure/).
 */
const throughOwnPorts = {
  runtime: [
    {
      group: [
        'src/modules/conversations/*',
        '!src/modules/conversations/application',
        'src/modules/conversations/application/*',
        '!src/modules/conversations/application/conversations.events',
      ],
      message:
        'The runtime reaches conversations through its own ports (application/ports, bound in src/composition); of conversations it imports only the events (conversations.events).',
    },
  ],
};

const ownAdapters = {
  group: ['**/infrastructure', '**/http'],
  message: 'The core does not depend on adapters.',
};

/** @param {string} context */
function contextBlocks(context) {
  const root = `src/modules/${context}`;
  const ownPorts = throughOwnPorts[context] ?? [];
  return [
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
              foreignInternals(context),
              ...ownPorts,
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
              foreignInternals(context),
              ...ownPorts,
            ],
          },
        ],
      },
    },
    {
      // The room of background loops: Nest's lifecycle and Logger are allowed, storage and HTTP are not.
      files: [`${root}/workers/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          { patterns: [...frameworkEdges, ownAdapters, foreignInternals(context), ...ownPorts] },
        ],
      },
    },
    // Its module imports none of the modules it reaches through its own ports either.
    ...(ownPorts.length > 0
      ? [
          {
            files: [`${root}/*.module.ts`],
            rules: { 'no-restricted-imports': ['error', { patterns: ownPorts }] },
          },
        ]
      : []),
    {
      files: [`${root}/infrastructure/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                // Allow-list: TypeORM relations need the entity classes of the tables a foreign key points to.
                group: [
                  'src/modules/*/infrastructure/*',
                  '!src/modules/*/infrastructure/*.entities',
                  `!src/modules/${context}/infrastructure/*`,
                ],
                message:
                  "Only another context's entities (for foreign keys) may be imported by infrastructure.",
              },
              {
                group: ['src/modules/*/domain', 'src/modules/*/http', `!src/modules/${context}/*`],
                message: 'Another context is reached through its application services.',
              },
            ],
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
              {
                group: ['src/modules/*/domain', 'src/modules/*/http', `!src/modules/${context}/*`],
                message: 'Another context is reached through its application services.',
              },
              {
                group: ['src/modules/*/infrastructure'],
                message: 'Controllers reach storage through application services.',
              },
            ],
          },
        ],
      },
    },
  ];
}

/**
 * Only platform modules are global : a global context module hides who depends on it.
 * A port that one context declares and another answers is bound in src/composition.
 */
const globalModulesOutsidePlatform = {
  files: ['src/**/*.ts'],
  ignores: ['src/platform/**'],
  rules: {
    'no-restricted-syntax': [
      'error',
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

/** The contexts are the folders of src/modules. */
export function boundaryBlocks(projectRoot = import.meta.dirname) {
  const contexts = readdirSync(join(projectRoot, 'src/modules'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  return [...contexts.flatMap(contextBlocks), globalModulesOutsidePlatform, genericEvents];
}
