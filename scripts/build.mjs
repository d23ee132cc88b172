/**
 * `npm run build`: the service as a few bundled ES modules in dist/.
 * One bundle instead of ~2,000 files in node_modules: a Node 20 process spends
 * most of a cold start resolving and compiling modules one by one (bench B5,
 * docs/decisions.md "Performance"). Type checking is `npm run typecheck`.
 */
import { rm } from 'node:fs/promises';
import { build } from 'esbuild';

// Another directory only for the test that starts the built service.
const outdir = process.argv[2] ?? 'dist';
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    main: 'src/main.ts',
    'migrate-cli': 'src/db/migrate-cli.ts',
    // A render thread's module, loaded by the pool from beside the bundle (src/rendering/pool.ts).
    'render-worker': 'src/rendering/render-worker.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Native bindings, packages that serve or load their own files from their
  // directory (piscina its thread script), and one that loads a CommonJS
  // package with import() for its named exports (Node gives them; a bundled
  // chunk would give only `default`). @fastify/swagger-ui loads its own
  // @fastify/static and yaml from node_modules: bundled too, they would be
  // parsed and run twice at every start (bench B5).
  external: ['libsql', 'pg-native', '@fastify/swagger-ui', '@fastify/cookie', 'piscina', '@fastify/static', 'yaml'],
  // Bundled CommonJS packages still call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __pbRequire } from 'node:module'; const require = __pbRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
