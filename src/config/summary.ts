import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from './config.js';

/** The service's version, from package.json above dist/ (the bundle) or src/config/ (sources). */
function version(): string {
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const text = readFileSync(new URL(candidate, import.meta.url), 'utf8');
      const manifest = JSON.parse(text) as { name?: string; version?: string };
      if (manifest.name === 'pageblocks' && manifest.version) return manifest.version;
    } catch {
      // not there: try the next place
    }
  }
  return 'unknown';
}

/** Where the data lives, as an operator reads it: never a password. */
export function databaseLocation(config: Config): { dialect: 'sqlite' | 'postgres'; location: string } {
  if (!config.databaseUrl) return { dialect: 'sqlite', location: resolve(config.dataDir, 'pageblocks.sqlite') };
  const url = new URL(config.databaseUrl);
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  const schema = config.databaseSchema ? ` schema ${config.databaseSchema}` : '';
  return { dialect: 'postgres', location: `${user}${url.host}${url.pathname}${schema}` };
}

/** The fields of the one start line: enough to tell which service runs on what. */
export function startupSummary(config: Config, url: string) {
  const storage =
    config.storage.driver === 's3'
      ? `s3 bucket ${config.storage.s3?.bucket}${config.storage.s3?.endpoint ? ` at ${config.storage.s3.endpoint}` : ''}`
      : `local ${resolve(config.dataDir, 'uploads')}`;
  return {
    url,
    public_url: config.publicUrl,
    database: databaseLocation(config),
    storage,
    version: version(),
    node: process.version,
  };
}
