/** What the in-process benches share: the service over a fresh database, a page of twenty, CPU per call. */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { dropPostgresSchema } from '../../src/db/dialects/postgres.js';
import { benchValues, BENCH_FIELDS, BENCH_TEMPLATE, signUp, site as newSite, v1, type Session } from './api.js';

/**
 * The service in this process, listening on loopback, over a fresh SQLite file
 * or (with DATABASE_URL) a PostgreSQL schema of its own; a user signed up and
 * a page of twenty instances of one block. `close` removes what it stored.
 */
export async function inProcessPage(label: string) {
  const dataDir = await mkdtemp(join(tmpdir(), `pb-${label}-`));
  const databaseUrl = process.env.DATABASE_URL;
  const schema = databaseUrl ? `${label}_${Date.now().toString(36)}` : undefined;
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
    }),
  );
  const close = async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
    if (databaseUrl && schema) await dropPostgresSchema(databaseUrl, schema);
  };
  try {
    await app.http.listen({ host: '127.0.0.1', port: 0 });
    const session = await signUp(`http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`);
    const page = await twentyPage(session, label);
    return { app, session, page, database: databaseUrl ? 'PostgreSQL' : 'SQLite', close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A site and a page of twenty instances of one block (B1's page, with one block instead of ten). */
export async function twentyPage(session: Session, label: string): Promise<{ id: number }> {
  const siteId = await newSite(session);
  const block = await v1(session, 'POST', '/blocks', {
    name: `${label} block`,
    template: BENCH_TEMPLATE,
    schema_content: BENCH_FIELDS,
  });
  return v1(session, 'POST', '/pages', {
    name: 'Twenty',
    site_id: siteId,
    blocks: Array.from({ length: 20 }, (_, i) => ({ block_id: block.id, placeholder_values: benchValues(i) })),
  });
}

/**
 * CPU µs per call of each part, by turns, in 3 rounds (500 calls of warm-up,
 * then `n` measured): process time, which other load on the machine barely moves.
 */
export async function cpuPerCall(parts: Record<string, () => unknown>, n: number): Promise<Record<string, number[]>> {
  const results: Record<string, number[]> = {};
  for (let round = 0; round < 3; round++) {
    for (const [name, run] of Object.entries(parts)) {
      for (let i = 0; i < 500; i++) await run();
      const before = process.cpuUsage();
      for (let i = 0; i < n; i++) await run();
      const used = process.cpuUsage(before);
      (results[name] ??= []).push((used.user + used.system) / n);
    }
  }
  return results;
}
