import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { dropPostgresSchema } from '../../src/db/dialects/postgres.js';

// A supervisor (systemd, a container runtime) signals only the process it
// started: `npm start`. The service must be that process or receive the signal.
describe('npm start under a supervisor', () => {
  beforeAll(async () => {
    // What `prepare` does at install, so that the test runs the current sources.
    await promisify(execFile)('npm', ['run', 'build', '--silent']);
  }, 300_000);

  it('logs one start line, and closes its port when npm start gets SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'pageblocks-npm-start-'));
    const schema = process.env.DATABASE_URL ? `test_${randomBytes(6).toString('hex')}` : '';
    const npm = spawn('npm', ['start', '--silent'], {
      env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DATABASE_SCHEMA: schema, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (chunk) => (output += String(chunk)));
    npm.stderr.on('data', (chunk) => (output += String(chunk)));
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start line in: ${output}`)), 90_000);
        npm.stdout.on('data', () => {
          const match = /started at (http:\/\/[\d.]+:\d+)/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
      });
      const start = output.split('\n').find((line) => line.includes('started at'));
      expect(JSON.parse(start!)).toMatchObject({
        url,
        database: { dialect: process.env.DATABASE_URL ? 'postgres' : 'sqlite' },
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        node: process.version,
      });
      expect((await fetch(`${url}/ready`)).status).toBe(200);

      npm.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).toMatch(/shutting down/);
      await expect(fetch(`${url}/health`)).rejects.toThrow();
    } finally {
      npm.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
      if (schema) await dropPostgresSchema(process.env.DATABASE_URL!, schema);
    }
  }, 150_000);
});
