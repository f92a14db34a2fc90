// Lint is part of `npm test`. The rules that carry the architecture:
// src/core must stay pure (no I/O modules), and imports point inward, layer by
// layer (lint/layers.js: the embedded apiserver never reaches into Warren, the
// gateway and the controllers never import each other, a controller imports only
// controllers/runtime and the layers below, the Tenant module sits below both).
import js from '@eslint/js';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import layers from './lint/layers.js';

const ioModules = ['node:http', 'node:https', 'node:net', 'node:tls', 'node:fs', 'node:fs/promises',
  'node:child_process', 'express', 'http-proxy', '@kubernetes/client-node', 'fs', 'http', 'https', 'net'];

const TEST_IMPORT_MESSAGE = 'A test file never imports another test file (its tests would run twice in a batch): move what is shared to a helper.';

export default tseslint.config(
  { ignores: ['node_modules/**', '.warren/**', 'dist/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Type-checked (issue 17): a promise nobody awaits loses its rejection, and an async
    // callback handed to an API that expects void (an event listener, a timer, an http
    // handler) fails where nobody hears it. node:test's describe/it return promises the
    // runner itself awaits, so they are known safe.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: fileURLToPath(new URL('.', import.meta.url)) } },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', {
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }],
      }],
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ioModules.map((name) => ({ name, message: 'src/core is pure: no I/O here.' })) }],
    },
  },
  {
    files: ['src/**/*.ts', 'console/web/**/*.ts'],
    plugins: { warren: layers },
    rules: { 'warren/layers': 'error' },
  },
  {
    // A log line with a level or an event is written by levelled() (observability/log-line.ts), so every
    // line carries a message lineLogger can print.
    files: ['src/**/*.ts'],
    ignores: ['src/observability/log-line.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.object.name='JSON'][callee.property.name='stringify'] > ObjectExpression > Property[key.name=/^(level|event)$/]",
        message: 'Write log lines with levelled() from src/observability/log-line.ts.',
      }],
    },
  },
  {
    // A test file never imports another test file: the unit and integration tiers run several files in one
    // process (scripts/test-batch.mjs), and an imported test file's tests would run again inside the importer
    // (session 11: two property files ran names.test.ts's 50 tests three times). Shared code goes in a helper.
    files: ['test/**/*.ts', 'test/**/*.mjs', 'test/**/*.js'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '\\.test(\\.[cm]?[jt]s)?$', message: TEST_IMPORT_MESSAGE }] }],
      'no-restricted-syntax': ['error', { selector: 'ImportExpression[source.value=/\\.test(\\.[cm]?[jt]s)?$/]', message: TEST_IMPORT_MESSAGE }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', 'bin/*'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
