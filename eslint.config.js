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
  // Server features (docs/architecture.md) never reach into each other's files: each exposes one
  // public module, and infrastructure (plugins, store, geo, lib) imports no feature at all.
  ...serverFeatureBoundaries(),
);

function serverFeatureBoundaries() {
  const publicModule = { site: null, signups: 'queries.ts', analytics: 'queries.ts', mail: 'outbox.ts', admin: null };
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
      rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/client/**'] }, ...forbidFeatures(feature)] }] },
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
              { group: [...features.map((f) => `**/${f}/*`), '!**/shared/**'], message: 'Infrastructure does not depend on features.' },
            ],
          },
        ],
      },
    },
  ];
}
