import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';

/** One broken invariant of the stored data (see integrity.ts). */
export interface Violation {
  check: string;
  /** Up to a few offending rows, as the query returned them. */
  rows: unknown[];
}

const SAMPLE = 5;

/**
 * `owners`: compare only these users' pages with their history (the whole
 * database otherwise). The comparison reads every version it checks, so a
 * test that checks after each of thousands of steps scopes it to the users
 * that acted.
 */
export interface IntegrityScope {
  owners?: number[];
}
/** What a version keeps of the page's row and compares with it (a site's or folder's deletion clears those without a version). */
const COMPARED = ['name', 'slug', 'meta_title', 'meta_description', 'meta_keywords', 'meta_robots'] as const;

/**
 * A page's history against the page: its version number is its latest
 * version's, that version names every instance as it stands (in order, each
 * by its latest state, whose pin, parent, values and bindings are the
 * instance's) and holds the page's metadata, and every version names states
 * that exist. A write that stopped half-way (a crash) must leave none of these
 * broken: the version is written in the write's transaction.
 */
export async function checkHistory(db: Kysely<DB>, scope: IntegrityScope = {}): Promise<Violation[]> {
  // A database from before history began (migration 0018) has none to check. Asked of the
  // migrations' own table, which lives where the service's tables do (any schema's would not).
  const { rows: applied } = await sql`select name from schema_migrations where name = '0018-page-history'`.execute(db);
  if (applied.length === 0) return [];
  const violations: Violation[] = [];
  // An empty list matches no page (never `in ()`).
  const owners = scope.owners && (scope.owners.length ? scope.owners : [-1]);
  // Raw fragments: `and <page id> in (the owners' pages)`, or nothing.
  const owned = (pageId: string) =>
    owners ? sql` and ${sql.raw(pageId)} in (select id from pages where owner_id in (${sql.join(owners)}))` : sql``;
  const found = (check: string, rows: unknown[]) => {
    if (rows.length) violations.push({ check, rows: rows.slice(0, SAMPLE) });
  };

  for (const table of ['page_versions', 'page_block_states'] as const) {
    const { rows } = await sql`select t.page_id as missing from ${sql.table(table)} t
      where not exists (select 1 from pages p where p.id = t.page_id)`.execute(db);
    found(`${table}.page_id references an existing pages row`, rows);
  }

  const { rows: numbers } = await sql<{ id: number; version: number; latest: number | null }>`
    select p.id, p.version, (select max(v.number) from page_versions v where v.page_id = p.id) as latest
    from pages p where 1 = 1${owned('p.id')}`.execute(db);
  found(
    "pages.version is the number of the page's latest version",
    numbers.filter((p) => p.latest === null || Number(p.latest) !== Number(p.version)),
  );

  const { rows: stale } = await sql`select pb.id, pb.page_id from page_blocks pb
      left join page_block_states s on s.id = (select max(x.id) from page_block_states x where x.page_block_id = pb.id)
    where (s.id is null or s.page_id <> pb.page_id or s.revision_id <> pb.revision_id or s.block_id <> pb.block_id
      or s.major <> pb.major or s.minor <> pb.minor
      or s.parent_page_block_id is distinct from pb.parent_page_block_id
      or s.placeholder_values <> pb.placeholder_values or s.bindings is distinct from pb.bindings)${owned('pb.page_id')}`.execute(
    db,
  );
  found("each instance's latest state is the instance as it stands", stale);

  const { rows: instances } = await sql<{ page_id: number; id: number; state: number | null }>`
    select pb.page_id, pb.id, (select max(x.id) from page_block_states x where x.page_block_id = pb.id) as state
    from page_blocks pb where 1 = 1${owned('pb.page_id')} order by pb.page_id, pb.order_index, pb.id`.execute(db);
  const expected = new Map<number, Array<[number, number]>>();
  for (const r of instances) {
    const list = expected.get(Number(r.page_id)) ?? [];
    list.push([Number(r.id), Number(r.state)]);
    expected.set(Number(r.page_id), list);
  }
  const latest = await db
    .selectFrom('page_versions as v')
    .innerJoin('pages as p', (j) => j.onRef('p.id', '=', 'v.page_id').onRef('p.version', '=', 'v.number'))
    .select([
      'v.page_id',
      'v.blocks',
      ...COMPARED.map((c) => `v.${c} as v_${c}` as const),
      ...COMPARED.map((c) => `p.${c}` as const),
    ])
    .$if(owners !== undefined, (q) => q.where('p.owner_id', 'in', owners!))
    .execute();
  const differing = latest.filter((v) => {
    const row = v as unknown as Record<string, unknown>;
    const list = JSON.stringify(JSON.parse(v.blocks));
    return (
      list !== JSON.stringify(expected.get(Number(v.page_id)) ?? []) || COMPARED.some((c) => row[c] !== row[`v_${c}`])
    );
  });
  found(
    "a page's latest version is the page as it stands",
    differing.map((v) => ({ page_id: v.page_id })),
  );

  const ownedPages = db
    .selectFrom('pages')
    .select('id')
    .where('owner_id', 'in', owners ?? []);
  const states = new Set(
    (
      await db
        .selectFrom('page_block_states')
        .select('id')
        .$if(owners !== undefined, (q) => q.where('page_id', 'in', ownedPages))
        .execute()
    ).map((s) => Number(s.id)),
  );
  const versions = await db
    .selectFrom('page_versions')
    .select(['page_id', 'number', 'blocks'])
    .$if(owners !== undefined, (q) => q.where('page_id', 'in', ownedPages))
    .execute();
  found(
    'every version names states that exist',
    versions
      .filter((v) => (JSON.parse(v.blocks) as Array<[number, number]>).some(([, s]) => !states.has(s)))
      .map((v) => ({ page_id: v.page_id, number: v.number })),
  );
  return violations;
}
