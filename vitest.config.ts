import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Three projects: `node` (service tests) and `web` (components in happy-dom) make
// `npm test`; `browser` (Chromium against the built service) is `npm run test:browser`.
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
          exclude: ['test/browser/**'],
          // The network off except loopback.
          setupFiles: ['test/support/loopback-only.ts'],
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'web',
          include: ['web/test/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['web/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], maxWorkers: 1, testTimeout: 120_000 },
      },
    ],
  },
});
