import type { Selectable } from 'kysely';
import type { UsersTable } from '../schema.js';
import type { User } from '../../modules/auth/auth.js';

/** Booleans come back as 0/1 from SQLite and as booleans from PostgreSQL. */
export const bool = (value: boolean | number): boolean => Boolean(value);

/** JSON columns come back as text from both dialects (see dialects/postgres.ts). */
export const fromJson = <T>(value: string): T => JSON.parse(value) as T;
export const toJson = (value: unknown): string => JSON.stringify(value);

export const toUser = (row: Omit<Selectable<UsersTable>, 'password_hash'>): User => ({
  id: row.id,
  email: row.email,
  is_admin: bool(row.is_admin),
  is_blocked: bool(row.is_blocked),
  created_at: row.created_at,
});

/** `count(*)` as a number on both dialects. */
export const countOf = (row: { count: number | string | bigint } | undefined): number => Number(row?.count ?? 0);
