import path from 'node:path';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

const resolver = path.join(import.meta.dirname, 'scripts/eslint-ts-resolver.cjs');

/**
 * The three files at the top of src/ are classified as files (element patterns
 * name folders): the composition root and the service bag that http and mcp see.
 */
const files = [
  { category: 'root', pattern: ['src/app.ts', 'src/main.ts'] },
  { category: 'services', pattern: 'src/services.ts' },
];

/**
 * The layers of src/ (see README, "Layout"): http → modules ← db, providers,
 * rendering, storage; shared and config import nothing of ours; only the
 * composition root (app.ts, main.ts) sees everything.
 */
const elements = [
  { type: 'config', pattern: 'src/config' },
  { type: 'shared', pattern: 'src/shared' },
  { type: 'modules', pattern: 'src/modules' },
  // The route schemas are what the API accepts; the MCP tools are made from them.
  { type: 'schemas', pattern: 'src/http/schemas' },
  { type: 'http', pattern: 'src/http' },
  { type: 'mcp', pattern: 'src/mcp' },
  { type: 'db', pattern: 'src/db' },
  { type: 'providers', pattern: 'src/providers' },
  { type: 'rendering', pattern: 'src/rendering' },
  { type: 'storage', pattern: 'src/storage' },
];

const ROOT_FILES = ['root', 'services'];
const may = (from, to) => {
  const source = ROOT_FILES.includes(from) ? { file: { categories: from } } : { element: { type: from } };
  const layers = to.filter((name) => !ROOT_FILES.includes(name));
  const roots = to.filter((name) => ROOT_FILES.includes(name));
  return {
    from: source,
    allow: [
      { to: { element: { types: { anyOf: layers } } } },
      ...roots.map((name) => ({ to: { file: { categories: name } } })),
    ],
  };
};

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
      'boundaries/files': files,
      'import/resolver': { [resolver]: {} },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          // A file of src/ outside every layer (a new top-level file) is refused too, not waved through.
          checkUnknownLocals: true,
          policies: [
            may('root', [
              'root',
              'services',
              'config',
              'shared',
              'modules',
              'http',
              'schemas',
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
            may('schemas', ['schemas', 'modules', 'shared']),
            // http mounts the MCP server at /api/v1/mcp; mcp reaches the service only through the API.
            may('http', ['http', 'schemas', 'mcp', 'modules', 'shared', 'services', 'config']),
            may('mcp', ['mcp', 'schemas', 'shared']),
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
