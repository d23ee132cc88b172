import { resolve } from 'node:path';
import type { Config } from './config.js';

/** Where the data lives, as an operator reads it: never a password. */
export function databaseLocation(config: Config): { dialect: 'sqlite' | 'postgres'; location: string } {
  if (!config.databaseUrl) return { dialect: 'sqlite', location: resolve(config.dataDir, 'pageblocks.sqlite') };
  const url = new URL(config.databaseUrl);
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  const schema = config.databaseSchema ? ` schema ${config.databaseSchema}` : '';
  return { dialect: 'postgres', location: `${user}${url.host}${url.pathname}${schema}` };
}

/** The fields of the one start line: enough to tell which service runs on what. */
export function startupSummary(config: Config, url: string, version: string) {
  const storage =
    config.storage.driver === 's3'
      ? `s3 bucket ${config.storage.s3?.bucket}${config.storage.s3?.endpoint ? ` at ${config.storage.s3.endpoint}` : ''}`
      : `local ${resolve(config.dataDir, 'uploads')}`;
  return {
    url,
    public_url: config.publicUrl,
    database: databaseLocation(config),
    storage,
    version,
    node: process.version,
  };
}
