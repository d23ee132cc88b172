import type { Config } from '../config/config.js';
import { localStorage } from './local.storage.js';
import { s3Storage } from './s3.storage.js';
import type { Storage } from './storage.js';

/** Storage adapters by name; the configuration was checked when it was loaded. */
export function createStorage(config: Pick<Config, 'storage' | 'dataDir'>): Storage {
  switch (config.storage.driver) {
    case 'local':
      return localStorage(config.dataDir);
    case 's3':
      return s3Storage(config.storage.s3!);
  }
}
