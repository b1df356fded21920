import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', '.bench/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/client/**/*.tsx', 'src/client/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Boundaries (ARCHITECTURE.md): shared imports nothing else from src/; client and server never
  // import each other.
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/client/**', '**/server/**', '**/content/**'] }],
    },
  },
  // Words and data at the bottom (decision 0059): content/ holds words and imports only the types
  // and helpers of src/shared; the locale list, message shapes and codes live there, never here.
  {
    files: ['content/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/client/**', '**/server/**', '**/scripts/**', '**/bench/**'] },
      ],
    },
  },
  {
    files: ['src/client/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/server/**'] }] },
  },
  {
    files: ['src/server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/client/**'] }] },
  },
  // Tests apart (issue 31): production code imports no test code: not Vitest, not the test kits in
  // src/server/test/, not bench/. typescript-eslint's copy of no-restricted-imports is a rule of
  // its own, so this holds beside the boundary rules above and below instead of replacing them.
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'src/server/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['vitest', 'vitest/*', '**/bench/**', '**/server/test/**', '**/test/*'],
              message: 'Production code imports no test code: test-only modules live in src/server/test/.',
            },
          ],
        },
      ],
    },
  },
  // Every API and console path is named once, in src/shared/paths.ts (decision 0009): a string
  // starting with /api/ or /admin anywhere else is a path written a second time. Tests, browser
  // tests and benches may spell addresses out (they check what the outside world sees).
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['src/shared/paths.ts', '**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'bench/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/^\\x2F(api\\x2F|admin)/]',
          message: 'Paths live in src/shared/paths.ts (decision 0009): import the name, do not write the path.',
        },
        {
          selector: 'TemplateElement[value.raw=/^\\x2F(api\\x2F|admin)/]',
          message: 'Paths live in src/shared/paths.ts (decision 0009): build it from a name there.',
        },
      ],
    },
  },
  // Server features (docs/architecture.md, decision 0059) never reach into each other's files: each
  // has one door, its index.ts, which says what the others may use; app.ts, env.ts, main.ts and
  // the scripts go through the doors too. Infrastructure (plugins, store, geo, lib) imports no
  // feature at all. A test may set up another feature's state through its files, so tests and the
  // test kits are left out of the door rule (they stay inside every other rule).
  ...serverFeatureBoundaries(),
);

function serverFeatureBoundaries() {
  const features = [
    'site',
    'signups',
    'subscribers',
    'mail',
    'broadcast',
    'operators',
    'allowlist',
    'analytics',
    'audit',
    'console',
  ];
  const testFiles = ['**/*.test.ts', 'src/server/test/**', 'src/server/integration/**'];
  const door = (f) => ({
    // src/shared/<name>/ (e.g. shared/allowlist/) holds schemas every side may use: not a feature's files.
    group: [`**/${f}/*`, `!**/${f}/index.ts`, '!**/shared/**', '!**/content/**'],
    message: `Another feature's files are private: import ${f}/index.ts, its door.`,
  });
  return [
    ...features.map((feature) => ({
      files: [`src/server/features/${feature}/**`],
      ignores: testFiles,
      rules: {
        'no-restricted-imports': [
          'error',
          { patterns: [{ group: ['**/client/**'] }, ...features.filter((f) => f !== feature).map(door)] },
        ],
      },
    })),
    {
      files: ['src/server/*.ts', 'scripts/**/*.ts'],
      ignores: testFiles,
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { group: ['**/client/**'] },
              {
                // A feature's configuration slice is public too: env.ts reads every slice
                // without loading the features themselves (scripts start in a third less time).
                group: ['**/features/*/*', '!**/features/*/index.ts', '!**/features/*/*-config.ts'],
                message:
                  "A feature's files are private: import its door, features/<name>/index.ts (or its <name>-config.ts).",
              },
            ],
          },
        ],
      },
    },
    {
      files: ['src/server/plugins/**', 'src/server/store/**', 'src/server/geo/**', 'src/server/lib/**'],
      ignores: testFiles,
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { group: ['**/client/**'] },
              { group: ['**/features/**'], message: 'Infrastructure does not depend on features.' },
            ],
          },
        ],
      },
    },
  ];
}
