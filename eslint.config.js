// Lint is part of `npm test`. The rules that carry the architecture:
// src/core must stay pure (no I/O modules), and the embedded apiserver must not
// reach into the gateway or controllers, so a real kube-apiserver can replace it.
import js from '@eslint/js';
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
