import type { ColumnType, Generated } from 'kysely';

/**
 * Column types as both dialects hand them back after the dialect files have
 * normalised them: timestamps are ISO-8601 strings, JSON columns are JSON text,
 * booleans are booleans (PostgreSQL) or 0/1 (SQLite) and are read with `Boolean()`.
 */
export type Timestamp = ColumnType<string, string, string>;
export type Bool = ColumnType<boolean | number, boolean, boolean>;
export type JsonText = ColumnType<string, string, string>;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  is_admin: Bool;
  is_blocked: Bool;
  created_at: Timestamp;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  prefix: string;
  key_hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

export interface SitesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  domain: string | null;
  layout_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  sites: SitesTable;
}
