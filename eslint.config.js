import path from 'node:path';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

const resolver = path.join(import.meta.dirname, 'scripts/eslint-ts-resolver.cjs');

/**
 * The layers of src/ (see README, "Layout"): http → modules ← db, providers,
 * rendering, storage; shared and config import nothing of ours; only the
 * composition root (app.ts, main.ts) sees everything.
 */
const elements = [
  { type: 'root', pattern: ['src/app.ts', 'src/main.ts'], partialMatch: false },
  { type: 'services', pattern: 'src/services.ts', partialMatch: false },
  { type: 'config', pattern: 'src/config' },
  { type: 'shared', pattern: 'src/shared' },
  { type: 'modules', pattern: 'src/modules' },
  { type: 'http', pattern: 'src/http' },
  { type: 'mcp', pattern: 'src/mcp' },
  { type: 'db', pattern: 'src/db' },
  { type: 'providers', pattern: 'src/providers' },
  { type: 'rendering', pattern: 'src/rendering' },
  { type: 'storage', pattern: 'src/storage' },
];

const may = (from, to) => ({ from: { element: { type: from } }, allow: { to: { element: { types: { anyOf: to } } } } });

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'data/**', 'node_modules/**', 'web/**', 'test/fixtures/**'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['scripts/gen-api.ts', 'scripts/crash-test.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    rules: {
      // Fastify hooks and handlers and the ports' methods are async by contract, awaiting or not.
      '@typescript-eslint/require-await': 'off',
      // A leading underscore names what is left out on purpose (`{ token: _token, ...rest }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests and benchmarks read JSON answers, which are `any` by nature; what they assert is the check.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Migrations and dialect helpers work on `Kysely<any>`: they run against every past schema, not the typed current one.
    files: ['src/db/migrations/**/*.ts', 'src/db/dialects/**/*.ts', 'src/db/prepared.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['**/*.{js,mjs,cjs}'], extends: [tseslint.configs.disableTypeChecked] },
  { files: ['scripts/**/*.{js,mjs,cjs}'], languageOptions: { globals: { process: 'readonly', console: 'readonly' } } },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', exports: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'import/resolver': { [resolver]: {} },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            may('root', [
              'root',
              'services',
              'config',
              'shared',
              'modules',
              'http',
              'mcp',
              'db',
              'providers',
              'rendering',
              'storage',
            ]),
            may('services', ['modules']),
            may('config', ['config']),
            may('shared', ['shared']),
            may('modules', ['modules', 'shared']),
            may('http', ['http', 'modules', 'shared', 'services', 'config']),
            may('mcp', ['mcp', 'modules', 'shared', 'services', 'config']),
            may('db', ['db', 'modules', 'shared', 'config']),
            may('providers', ['providers', 'modules', 'shared']),
            may('rendering', ['rendering', 'modules', 'shared']),
            may('storage', ['storage', 'modules', 'shared', 'config']),
          ],
        },
      ],
    },
  },
  prettier,
);
