// @ts-check
// ESLint for the whole repository, type-aware (typescript-eslint's recommended-type-checked): the
// TypeScript under src/, test/ and scripts/ through tsconfig.json, the launchers and build files
// (ES modules with JSDoc types) through scripts/tsconfig.json. `npm run lint` runs it with
// --max-warnings 0, so every rule here is an error in effect. Every rule turned off or relaxed
// below says why on its line.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Folders whose code must run under plain Node: they never import `vscode`. */
const SEAMS = [
  'src/terminal/**',
  'src/lsp/**',
  'src/tmux/**',
  'src/mcp/**',
  'src/proc/**',
  'src/common/**',
  'src/approval/**',
  'src/tools/**',
];

/** Why navigation (src/lsp) and the terminal (src/terminal) never import each other. */
const INDEPENDENT_SEAMS =
  'Navigation and the terminal are independent seams: what both need (process inspection) lives in src/proc/ or src/common/.';

/**
 * `no-restricted-imports` for a seam: no `vscode`, nothing of the vscode layer or the composition
 * root, and nothing matching `extra` patterns.
 * @param {...{ group: string[], message: string }} extra
 * @returns {import('eslint').Linter.RuleEntry}
 */
function seamImports(...extra) {
  return [
    'error',
    {
      paths: [{ name: 'vscode', message: 'The seams run under plain Node: only src/vscode/ and src/extension.ts import vscode.' }],
      patterns: [
        { group: ['**/vscode/*', '**/extension'], message: 'The seams do not depend on the vscode layer or the composition root.' },
        ...extra,
      ],
    },
  ];
}

export default defineConfig(
  {
    ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test/fixtures/**'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The first project that includes a file types it.
        project: ['./tsconfig.json', './scripts/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Promises: every one is awaited, returned, or handed to `void` where its errors are handled.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // `_` names a parameter a signature needs but the body does not use (tsc's
      // noUnusedParameters has the same convention).
      // Off: tsc's noUnusedLocals checks it, and counts a type imported for a {@link} in a docstring as used.
      '@typescript-eslint/no-unused-vars': 'off',
      // `import x = require('x')` is TypeScript's typed form of a CommonJS import (the module object itself).
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
      // Passing a caught error on unchanged (whatever it is) is right; new rejections are Errors.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],

      // Off: TypeScript itself reports undefined names, in the .mjs files too (checkJs).
      'no-undef': 'off',
      // Off: `async` without `await` is how the code implements a Promise-returning interface, so
      // that a throw becomes a rejection rather than a synchronous exception.
      '@typescript-eslint/require-await': 'off',
      // Off: terminal code matches escape sequences (ESC, BEL, C1 controls) on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // In JavaScript a JSON.parse result is typed by a JSDoc cast, `/** @type {T} */ (JSON.parse(…))`,
    // which ESLint's syntax tree loses with the parentheses: the value still reads as any there.
    files: ['**/*.mjs'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off', '@typescript-eslint/no-unsafe-member-access': 'off' },
  },
  {
    // The escape-sequence scanner, and the panel's filter that runs it, decode a packed numeric state table into its action enum.
    files: ['src/terminal/output/escapeScan.ts', 'src/terminal/panel/panelFilter.ts'],
    rules: { '@typescript-eslint/no-unsafe-enum-comparison': 'off' },
  },
  { files: SEAMS, rules: { 'no-restricted-imports': seamImports() } },
  // A later block's options replace an earlier one's for the same rule, so these repeat the above.
  { files: ['src/lsp/**'], rules: { 'no-restricted-imports': seamImports({ group: ['**/terminal/*'], message: INDEPENDENT_SEAMS }) } },
  { files: ['src/terminal/**'], rules: { 'no-restricted-imports': seamImports({ group: ['**/lsp/*'], message: INDEPENDENT_SEAMS }) } },
  {
    files: ['src/approval/**'],
    rules: {
      'no-restricted-imports': seamImports({
        group: ['**/terminal/*', '**/lsp/*'],
        message: 'Auto approval judges text against rules: it needs neither seam (the tools hand it what the session knows).',
      }),
    },
  },
);
