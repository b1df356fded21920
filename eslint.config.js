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
      'no-restricted-imports': ['error', { patterns: ['**/client/**', '**/server/**'] }],
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
  // Server features (docs/architecture.md) never reach into each other's files: each exposes one
  // public module, and infrastructure (plugins, store, geo, lib) imports no feature at all.
  ...serverFeatureBoundaries(),
);

function serverFeatureBoundaries() {
  const publicModule = {
    site: null,
    signups: 'queries.ts',
    analytics: 'queries.ts',
    mail: 'outbox.ts',
    allowlist: 'queries.ts',
    admin: null,
  };
  const features = Object.keys(publicModule);
  const forbidFeatures = (except) =>
    features
      .filter((f) => f !== except)
      .map((f) => ({
        // src/shared/<feature>/ (e.g. shared/admin/) holds schemas every side may use: not a feature's files.
        group: [`**/${f}/*`, ...(publicModule[f] ? [`!**/${f}/${publicModule[f]}`] : []), '!**/shared/**'],
        message: publicModule[f]
          ? `Another feature's files are private: import only ${f}/${publicModule[f]}.`
          : `The ${f} feature has no public module; share through src/shared or infrastructure.`,
      }));
  return [
    ...features.map((feature) => ({
      files: [`src/server/${feature}/**`],
      rules: {
        'no-restricted-imports': ['error', { patterns: [{ group: ['**/client/**'] }, ...forbidFeatures(feature)] }],
      },
    })),
    {
      files: ['src/server/plugins/**', 'src/server/store/**', 'src/server/geo/**', 'src/server/lib/**'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { group: ['**/client/**'] },
              // src/shared/admin/ and the like are schemas every side may use (see above), not features.
              {
                group: [...features.map((f) => `**/${f}/*`), '!**/shared/**'],
                message: 'Infrastructure does not depend on features.',
              },
            ],
          },
        ],
      },
    },
  ];
}
