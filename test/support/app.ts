import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildApp, type AppOverrides, type BuiltApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { dropPostgresSchema } from '../../src/db/dialects/postgres.js';
import { client, type Client } from './client.js';
import { checkedClient } from './documented-responses.js';

export const PUBLIC_URL = 'http://pageblocks.test';
export const ADMIN = { email: 'admin@pageblocks.test', password: 'admin-password-1' };

export interface TestApp extends Client {
  url: string;
  app: BuiltApp;
  config: Config;
  /** Stops the server but keeps its data (for restart tests). */
  stop(): Promise<void>;
  /** Stops the server and removes its data. */
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  overrides?: AppOverrides;
  /** Reuse the data of an earlier app (restart tests). */
  storage?: { dataDir: string; schema: string | undefined };
}

/**
 * The configuration of a test app over the database the run is configured
 * for: a fresh SQLite file under a temporary DATA_DIR, or, when DATABASE_URL
 * is set (CI), a private PostgreSQL schema so that test files run side by side.
 */
export async function testSetup(options: StartOptions = {}) {
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = options.storage?.dataDir ?? (await mkdtemp(join(tmpdir(), 'pageblocks-test-')));
  const schema = options.storage
    ? options.storage.schema
    : databaseUrl
      ? `test_${randomBytes(6).toString('hex')}`
      : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    PUBLIC_URL,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    PROVIDER_ALLOW_PRIVATE: '1',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
    ...options.env,
  });
  // Every test registers and signs in from 127.0.0.1: the limits per address are lifted unless a test sets them.
  const overrides = {
    ...options.overrides,
    throttle: { registrationsPerAddress: 100_000, loginAttemptsPerAddress: 100_000, ...options.overrides?.throttle },
  };
  /** Removes what the app stored (its PostgreSQL schema, its data directory). */
  const cleanup = async () => {
    if (databaseUrl && schema) await dropPostgresSchema(databaseUrl, schema);
    await rm(dataDir, { recursive: true, force: true });
  };
  return { config, dataDir, schema, overrides, cleanup };
}

/** A real server on a loopback port, over the database of `testSetup`. */
export async function startApp(options: StartOptions = {}): Promise<TestApp> {
  const { config, dataDir, overrides, cleanup } = await testSetup(options);
  const app = await buildApp(config, overrides);
  await app.http.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.http.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await app.close();
  };
  return {
    // Every answer of a documented operation is checked against the served OpenAPI document.
    ...checkedClient(client(url), url),
    url,
    app,
    config: { ...config, dataDir },
    stop,
    close: async () => {
      await stop();
      await cleanup();
    },
  };
}

export const storageOf = (t: TestApp) => ({ dataDir: t.config.dataDir, schema: t.config.databaseSchema });
