// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** What domain/ and application/ may never import: the framework edges (ARCHITECTURE §2 rule 2). */
const layerRule = {
  patterns: [
    { group: ['typeorm', 'typeorm/*'], message: 'TypeORM lives in infrastructure/.' },
    { group: ['express', 'express/*', 'node:http', 'http'], message: 'HTTP lives in http/.' },
    { group: ['class-validator', 'class-transformer'], message: 'Request validation lives in http/ DTOs.' },
    {
      group: ['@nestjs/typeorm', '@nestjs/swagger', '@nestjs/platform-express'],
      message: 'Framework adapters stay out of the core.',
    },
    { group: ['**/infrastructure/**', '**/http/**'], message: 'The core does not depend on adapters.' },
    {
      // The typed port and decorators are what keep an emitter and its listeners on one payload type.
      group: ['@nestjs/event-emitter', 'eventemitter2'],
      message: 'In-process events go through InProcessEvents and its typed decorators (platform/events).',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'dist-test/**', 'node_modules/**', 'coverage/**', '.data/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ['**/*.ts'] })),
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['src/modules/*/domain/**/*.ts', 'src/modules/*/application/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', layerRule] },
  },
  {
    files: ['src/modules/*/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...layerRule.patterns,
            { group: ['@nestjs/*'], message: 'The domain is plain TypeScript.' },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: globals.node,
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  prettier,
);
