import type { Database } from '../dialects/dialect.js';

/** A key's owner as the lookup reads it, with the version of the page it was asked with. */
export interface OwnerRow {
  keyId: number;
  last_used_at: string | null;
  userId: number;
  is_admin: boolean | number;
  is_blocked: boolean | number;
  page_version?: string | null;
}

// One row per presented key that exists, numbered as they were asked (`i`, from 1).
const LOOKUPS = `select k.i, a.id as "keyId", a.last_used_at, u.id as "userId", u.is_admin, u.is_blocked,
  (select p.content_version::text from pages p where p.id = k.page_id) as page_version
from unnest($1::text[], $2::integer[]) with ordinality as k(hash, page_id, i)
join api_keys a on a.key_hash = k.hash
join users u on u.id = a.user_id`;

interface Asked {
  hash: string;
  pageId: number | undefined;
  resolve: (row: OwnerRow | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * PostgreSQL: the key lookups of the requests that arrive in one turn of the
 * event loop, sent as one statement when the turn ends (`setImmediate`): every
 * request still asks the database (a deleted key fails at once, a page's
 * version is read after the request came), but a round trip, whose socket
 * writes and reads were most of a kept page read's CPU, is shared by the
 * requests that came together. A lookup alone goes by `alone`, as before.
 */
export function batchedKeyLookups(
  readNow: NonNullable<Database['readNow']>,
  alone: (hash: string, pageId: number | undefined) => Promise<OwnerRow | undefined>,
) {
  let asked: Asked[] = [];
  const flush = () => {
    const batch = asked;
    asked = [];
    if (batch.length === 1) {
      const [only] = batch as [Asked];
      alone(only.hash, only.pageId).then(only.resolve, only.reject);
      return;
    }
    let rows: Promise<unknown[]> | unknown[] | undefined;
    try {
      rows = readNow(LOOKUPS, [batch.map((a) => a.hash), batch.map((a) => a.pageId ?? null)]);
    } catch (error) {
      for (const a of batch) a.reject(error);
      return;
    }
    // Inside a dry run the pool is not the place: each goes alone, through its connection.
    if (rows === undefined) {
      for (const a of batch) alone(a.hash, a.pageId).then(a.resolve, a.reject);
      return;
    }
    Promise.resolve(rows).then(
      (found) => {
        const byPlace = new Array<(OwnerRow & { i: number }) | undefined>(batch.length);
        for (const row of found as Array<OwnerRow & { i: number }>) byPlace[row.i - 1] = row;
        batch.forEach((a, place) => {
          const row = byPlace[place];
          if (!row) return a.resolve(undefined);
          const { i: _i, page_version, ...owner } = row;
          a.resolve(a.pageId === undefined ? owner : { ...owner, page_version });
        });
      },
      (error: unknown) => {
        for (const a of batch) a.reject(error);
      },
    );
  };
  return (hash: string, pageId: number | undefined) =>
    new Promise<OwnerRow | undefined>((resolve, reject) => {
      if (asked.push({ hash, pageId, resolve, reject }) === 1) setImmediate(flush);
    });
}
