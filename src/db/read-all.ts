import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

type Reads<T extends readonly unknown[]> = { [K in keyof T]: () => Promise<T[K]> | T[K] };

/**
 * Independent reads at once on the pool, but one after another inside a
 * transaction: a transaction holds a single connection, and a connection runs
 * one query at a time (pg deprecates queueing a second, and pg 9 refuses it).
 */
export async function readAll<T extends readonly unknown[]>(db: Kysely<DB>, ...reads: Reads<T>): Promise<T> {
  if (!db.isTransaction) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}
