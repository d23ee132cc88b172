import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Four projects: `node` (service tests), `web` (components in happy-dom) and
// `event-loop` (run last, alone) make `npm test`; `browser` (Chromium against the built service) is `npm run test:browser`.
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**', 'test/event-loop/**'],
          // The network off except loopback; a deprecation warning fails its test.
          setupFiles: ['test/support/loopback-only.ts', 'test/support/no-deprecations.ts'],
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'web',
          include: ['web/test/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          // Wide enough for the page editor's panel beside the page (80 em and wider).
          environmentOptions: { happyDOM: { width: 1440, height: 900 } },
          setupFiles: ['web/test/setup.ts'],
          // @rjsf/mantine imports dayjs plugins without their extension, which Node's ESM loader refuses: Vite resolves them.
          server: { deps: { inline: ['@rjsf/mantine'] } },
        },
      },
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], maxWorkers: 1, testTimeout: 120_000 },
      },
      {
        // Measures /health latency: run alone, after every other test file, so their load is not in the figures.
        extends: true,
        test: {
          name: 'event-loop',
          include: ['test/event-loop/**/*.test.ts'],
          sequence: { groupOrder: 1 },
          fileParallelism: false,
        },
      },
    ],
  },
});
