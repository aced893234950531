// @ts-check
// One ESLint config for the whole monorepo: typescript-eslint's type-checked rules on every package's
// sources and tests, React's hook rules and jsx-a11y on the web app, and eslint-config-prettier last so
// that no rule here argues with the formatter (Prettier owns layout; ESLint owns correctness).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig } from 'eslint/config';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // Build output, installed packages, and what the system or the bench writes at run time.
    ignores: ['**/dist/', '**/node_modules/', '**/data/', 'bench/results/', '**/coverage/', '**/test-results/'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked with the types of the tsconfig that owns it (found like an editor finds it).
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // In recommendedTypeChecked already; named here because they are the point of this config.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      // The code already writes `import { x, type Y }`; isolatedModules needs type-only imports marked.
      // disallowTypeAnnotations off: `typeof import('./Module')` names a lazily loaded module's type without a
      // static import, which is the point of the lazy load.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // A run of empty cases, commented, is one group of cases, not a fall-through.
      'no-fallthrough': ['error', { allowEmptyCase: true }],
      // Off: an `async` function with no `await` is how this code says "returns a promise, and a throw is a
      // rejection" (to fit a Promise-returning interface). Dropping `async` would turn those rejections into
      // synchronous throws: a behaviour change, not a cleanup.
      '@typescript-eslint/require-await': 'off',
      // Passing on, as it is, an error received from elsewhere (a catch, a callback's error, a Redis reply) is
      // not inventing a non-Error: what is thrown is whatever the failing library gave.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // `_`-prefixed names are the codebase's (and TypeScript's noUnusedParameters') way to say "unused on purpose".
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Browser code: the hooks rules and the accessibility rules.
    files: ['web/src/**/*.{ts,tsx}'],
    ...jsxA11y.flatConfigs.recommended,
    plugins: { ...jsxA11y.flatConfigs.recommended.plugins, 'react-hooks': reactHooks },
    languageOptions: { ...jsxA11y.flatConfigs.recommended.languageOptions, globals: globals.browser },
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // A scrolling region (a table, a statement, a notice) must be reachable by keyboard to be scrolled
      // (axe's scrollable-region-focusable, which the browser tests run): tabIndex={0} there is required.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { roles: ['tabpanel', 'region', 'document'], tags: ['pre'] }],
      // antd's inputs are controls the rule cannot see: a <label> wrapping one is labelling it.
      'jsx-a11y/label-has-associated-control': ['error', { controlComponents: ['Input', 'Input.Password', 'Input.TextArea', 'InputNumber', 'Select'], depth: 3 }],
    },
  },
  {
    // Tests only: the specs, the `testing/` helpers (which every package's build tsconfig excludes), and the
    // browser (e2e) and resilience suites. No product file matches these globs. The tests' HTTP harnesses
    // (cli/src/testing/testSystem.ts, e2e/src/support/system.ts, resilience/src/support/splitSystem.ts) read an
    // answer as untyped JSON on purpose: a test asserts on the raw answer the server sent (toMatchObject,
    // toEqual), not on a type that would restate the very contracts under test and so could only agree with
    // them. Member access on those bodies is therefore `any` by design, and the no-unsafe-* rules, which exist
    // to stop `any` leaking into typed code, have nothing to protect here.
    files: ['*/src/**/*.spec.ts', '*/src/**/testing/**/*.ts', 'e2e/src/**/*.ts', 'resilience/src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JavaScript (build scripts, the CLI's launcher, this file) belongs to no tsconfig, so it gets the
    // untyped rules only; these run in Node.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  prettier,
);
