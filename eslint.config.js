// Lint is part of `npm test`: type-aware rules catch floating promises and non-exhaustive switches, and the
// import boundaries below are ARCHITECTURE rules 1-3, so a wrong import fails the build rather than a review.
import tseslint from 'typescript-eslint';

const electronOnly = {
  name: 'electron',
  message: 'Only src-main/index.ts, src-main/app/ and src-preload/ may import electron (ARCHITECTURE rule 2).',
};
const nodeBuiltins = {
  group: ['node:*', 'fs', 'path', 'child_process', 'os', 'crypto', 'net', 'http', 'worker_threads'],
  message: 'This code runs in a window or in every process: no Node built-ins (ARCHITECTURE rules 1 and 3).',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', '.native/', 'test-results/', 'playwright-report/', 'bench/results/'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      'no-restricted-imports': ['error', { paths: [electronOnly] }],
    },
  },
  {
    files: ['src-main/index.ts', 'src-main/app/**', 'src-preload/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src-shared/**', 'src-renderer/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [electronOnly], patterns: [nodeBuiltins] }] },
  },
  {
    files: ['src-main/venue/engine/**', 'src-main/venue/ledger/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnly, { name: 'better-sqlite3', message: 'engine and ledger are pure (ARCHITECTURE rule 1).' }],
          patterns: [
            nodeBuiltins,
            { group: ['**/store', '**/store/**', '**/api', '**/api/**', '**/sim', '**/sim/**', 'fastify', 'ws'], message: 'engine and ledger are pure (ARCHITECTURE rule 1).' },
          ],
        },
      ],
    },
  },
  {
    files: ['src-renderer/**'],
    ignores: ['src-renderer/bridge/**'],
    rules: {
      'no-restricted-globals': ['error', { name: 'nova', message: 'Only src-renderer/bridge/ touches window.nova (ARCHITECTURE rule 3).' }],
      'no-restricted-properties': ['error', { object: 'window', property: 'nova', message: 'Only src-renderer/bridge/ touches window.nova (ARCHITECTURE rule 3).' }],
    },
  },
  {
    // Tests read wire JSON loosely and check it with expect(); the unsafe-any rules would only add casts.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
