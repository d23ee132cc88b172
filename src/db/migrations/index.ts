import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.js';
import * as accounts from './0001-accounts.js';

export interface VersionedMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}

/**
 * Ordered by name; a migration, once released, is never edited: a change is a
 * new file. Each builds the same schema on both dialects.
 */
export const migrations: Record<string, VersionedMigration> = {
  '0001-accounts': accounts,
};
