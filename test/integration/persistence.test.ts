import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { dropPostgresSchema } from '../../src/db/dialects/postgres.js';
import { startApp, storageOf } from '../support/app.js';
import { newUser } from '../support/factories.js';

describe('data survives a restart', () => {
  it('reads back, after a stop and a start on the same data, what was written before', async () => {
    const first = await startApp();
    const user = await newUser(first);
    const site = (await first.call('POST', '/api/sites', { cookie: user.cookie, body: { name: 'Kept' } })).body;
    await first.stop();

    const second = await startApp({ storage: storageOf(first) });
    try {
      // The key and the session were stored, not kept in memory.
      const sites = await second.call('GET', '/api/v1/sites', { key: user.key });
      expect(sites.status).toBe(200);
      expect(sites.body.data).toEqual([expect.objectContaining({ id: site.id, name: 'Kept' })]);
      expect((await second.call('GET', '/api/auth/me', { cookie: user.cookie })).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});

describe('the process', () => {
  // The bundle goes under node_modules/.cache so that its external packages resolve.
  const built = `node_modules/.cache/pageblocks-build-${randomBytes(4).toString('hex')}`;
  afterAll(() => rm(built, { recursive: true, force: true }));

  it.each([
    ['src/main.ts, from source', async () => ['--import', 'tsx', 'src/main.ts']],
    [
      'the production build (npm start)',
      async () => {
        await promisify(execFile)(process.execPath, ['scripts/build.mjs', built]);
        return [`${built}/main.js`];
      },
    ],
  ])(
    'starts from %s, serves, and closes cleanly on SIGTERM',
    async (_name, command) => {
      const dataDir = await mkdtemp(join(tmpdir(), 'pageblocks-proc-'));
      const schema = process.env.DATABASE_URL ? `test_${randomBytes(6).toString('hex')}` : '';
      const child = spawn(process.execPath, await command(), {
        env: {
          ...process.env,
          PORT: '0',
          DATA_DIR: dataDir,
          DATABASE_SCHEMA: schema,
          LOG_LEVEL: 'info',
          WEB_DIR: 'test/fixtures/web-dist',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += String(chunk)));
      child.stderr.on('data', (chunk) => (output += String(chunk)));
      try {
        const url = await new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no listen line in: ${output}`)), 60_000);
          child.stdout.on('data', () => {
            const match = /listening at (http:\/\/[\d.]+:\d+)/.exec(output);
            if (match) {
              clearTimeout(timer);
              resolve(match[1]!);
            }
          });
        });
        expect((await fetch(`${url}/ready`)).status).toBe(200);
        // Documentation too: its UI serves files from its package's own directory.
        expect((await fetch(`${url}/api/v1/docs.json`)).status).toBe(200);
        expect((await fetch(`${url}/api/v1/docs/static/index.css`)).status).toBe(200);
        // The web app at `/`, and its routes through the HTML fallback.
        const app = await fetch(`${url}/pages/1`, { headers: { accept: 'text/html' } });
        expect(await app.text()).toContain('fixture-app-index');
        const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(output).toMatch(/shutting down/);
        // A first start on an empty data directory is a normal start: nothing at warning level or above.
        const loud = output
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .filter((line) => (JSON.parse(line) as { level: number }).level >= 40);
        expect(loud).toEqual([]);
      } finally {
        child.kill('SIGKILL');
        await rm(dataDir, { recursive: true, force: true });
        if (schema) await dropPostgresSchema(process.env.DATABASE_URL!, schema);
      }
      // Past the listen line's own minute: on the shared machine a start from source has taken 30 s.
    },
    90_000,
  );
});
