import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { Storage } from '../modules/uploads/uploads.js';

/**
 * Storage adapters by name; the configuration was checked when it was loaded.
 * Each adapter is imported only when chosen: the S3 SDK alone costs a large
 * part of a cold start.
 */
export async function createStorage(config: Pick<Config, 'storage' | 'dataDir'>): Promise<Storage> {
  switch (config.storage.driver) {
    case 'local':
      return (await import('./local.storage.js')).localStorage(config.dataDir);
    case 's3':
      return (await import('./s3.storage.js')).s3Storage(config.storage.s3!, join(config.dataDir, 'spool'));
  }
}
