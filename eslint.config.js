// Lint is part of `npm test`. The rules that carry the architecture:
// src/core must stay pure (no I/O modules), and the embedded apiserver must not
// reach into the gateway or controllers, so a real kube-apiserver can replace it.
import js from '@eslint/js';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

const ioModules = ['node:http', 'node:https', 'node:net', 'node:tls', 'node:fs', 'node:fs/promises',
  'node:child_process', 'express', 'http-proxy', '@kubernetes/client-node', 'fs', 'http', 'https', 'net'];

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
    files: ['src/apiserver/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/gateway/**', '**/controllers/**'], message: 'The embedded apiserver must not depend on the gateway or controllers.' }] }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', 'bin/*'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
