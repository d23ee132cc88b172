import { sql, type Kysely } from 'kysely';
import type { Database } from './dialect.js';
import {
  revisionJoin,
  selectNow,
  type BlockSearch,
  type BlockSearchQuery,
  type PageSearch,
  type PageSearchDocument,
  type SearchColumns,
} from './search.js';

// The 'simple' configuration: no stemming, like SQLite's unicode61, so that
// the same query finds the same blocks on both databases.
const VECTOR = (doc: { name: unknown; description: unknown; docs: unknown; tags: unknown }) => sql`
  setweight(to_tsvector('simple', ${doc.name}), 'A') ||
  setweight(to_tsvector('simple', ${doc.tags}), 'B') ||
  setweight(to_tsvector('simple', ${doc.description}), 'B') ||
  setweight(to_tsvector('simple', ${doc.docs}), 'C')`;

/** Who sees a block in lists, as on SQLite: `global`, `deprecated` (a global block no list shows) or `u<owner>`. */
const VISIBILITY = (b: string) =>
  `case when ${b}.scope = 'global' then (case when ${b}.is_deprecated then 'deprecated' else 'global' end) else 'u' || ${b}.owner_id end`;

const prefixQuery = (terms: string[]) => terms.map((t) => `${t.replace(/[^\p{L}\p{N}]/gu, '')}:*`).join(' & ');

/**
 * The index lives in its own narrow table (block id, visibility token, vector):
 * a search reads one heap row per match, and those rows are a third of a block's
 * width, so the matches sit on fewer pages. The token is kept by a trigger on
 * scope, owner and deprecation, whatever changes them; rows leave with their block.
 */
export const postgresBlockSearch: BlockSearch = {
  async migrate(db) {
    await sql`create table block_search (
      block_id integer primary key references blocks (id) on delete cascade,
      vis text not null,
      search_vector tsvector not null)`.execute(db);
    await sql`create index block_search_vector on block_search using gin (search_vector)`.execute(db);
    await sql
      .raw(
        `create function block_search_visibility() returns trigger language plpgsql set search_path from current as $$
         begin update block_search set vis = ${VISIBILITY('new')} where block_id = new.id; return null; end $$`,
      )
      .execute(db);
    await sql`create trigger block_search_visibility after update of scope, owner_id, is_deprecated on blocks
      for each row execute function block_search_visibility()`.execute(db);
  },
  async rebuild(db) {
    // Before migration 0014 the vector was a column of blocks, with its index.
    await sql`alter table blocks drop column if exists search_vector`.execute(db);
    await sql`drop trigger if exists block_search_visibility on blocks`.execute(db);
    await sql`drop function if exists block_search_visibility()`.execute(db);
    await sql`drop table if exists block_search`.execute(db);
    await postgresBlockSearch.migrate(db);
    const tags = sql`coalesce((select string_agg(t.name, ' ') from block_tags bt join tags t on t.id = bt.tag_id where bt.block_id = b.id), '')`;
    await sql`insert into block_search (block_id, vis, search_vector)
      select b.id, ${sql.raw(VISIBILITY('b'))},
        ${VECTOR({ name: sql`b.name`, description: sql`b.description`, docs: sql`b.docs`, tags })}
      from blocks b`.execute(db);
  },
  async index(db: Kysely<any>, blockId, doc) {
    await sql`insert into block_search (block_id, vis, search_vector)
      select id, ${sql.raw(VISIBILITY('blocks'))}, ${VECTOR(doc)} from blocks where id = ${blockId}
      on conflict (block_id) do update set vis = excluded.vis, search_vector = excluded.search_vector`.execute(db);
  },
  tagIds: sql`(select string_agg(tag_id::text, ',' order by tag_id) from block_tags where block_id = blocks.id)`,
  async search(db: Kysely<any>, query: BlockSearchQuery, columns: SearchColumns, readNow?: Database['readNow']) {
    const q = sql`to_tsquery('simple', ${prefixQuery(query.terms)})`;
    const visible = sql`(vis = 'global' or vis = ${`u${query.viewerId}`})`;
    // One statement, one round trip: the visible matches ranked without touching blocks,
    // counted in the same pass (a separate count visited every matching heap page a second
    // time, B4 at 100k), then only the page joined to its blocks. The matches are kept as
    // (id, score) rows and counted there: `count(*) over ()` kept each whole row, vector
    // and all, and took half again as long at 100k blocks (same rows and total).
    // ts_rank grows with relevance; descending, then by id, as SQLite's bm25 ascending.
    // A named prepared statement (`readNow`): planned once per connection, not on every search.
    const names = columns.map((_, i) => `c${i}`);
    const rows = await selectNow(
      db,
      sql<Record<string, unknown>>`select ${sql.join(columns.map((c, i) => sql`${c} as ${sql.raw(names[i]!)}`))},
        p.total as search_total
      from (
        with m as materialized (
          select block_id, ts_rank('{0.1, 0.2, 0.4, 1.0}', search_vector, q) as score
          from block_search, ${q} q
          where search_vector @@ q and ${visible})
        select block_id, score, (select count(*) from m) as total
        from m order by score desc, block_id limit ${query.limit} offset ${query.offset}) p
      join blocks on blocks.id = p.block_id
      ${revisionJoin}
      order by p.score desc, p.block_id`,
      readNow,
    );
    if (rows.length > 0)
      return { rows: rows.map((row) => names.map((name) => row[name])), total: Number(rows[0]!.search_total) };
    if (query.offset === 0 && query.limit > 0) return { rows: [], total: 0 };
    // Past the end (or an empty page) no row carries the count: it is taken on its own.
    const counted = await selectNow(
      db,
      sql<{ n: string }>`select count(*) as n from block_search where search_vector @@ ${q} and ${visible}`,
      readNow,
    );
    return { rows: [], total: Number(counted[0]?.n ?? 0) };
  },
};
const PAGE_VECTOR = (doc: PageSearchDocument) => sql`setweight(to_tsvector('simple', ${doc.name}), 'A') ||
      setweight(to_tsvector('simple', ${doc.slug}), 'B') ||
      setweight(to_tsvector('simple', ${doc.meta}), 'C')`;

export const postgresPageSearch: PageSearch = {
  async migrate(db) {
    await sql`alter table pages add column search_vector tsvector not null default ''::tsvector`.execute(db);
    await sql`create index pages_search_vector on pages using gin (search_vector)`.execute(db);
  },
  async index(db: Kysely<any>, pageId, doc) {
    await sql`update pages set search_vector = ${PAGE_VECTOR(doc)} where id = ${pageId}`.execute(db);
  },
  // Set by the page's insert: no second write of the row (nor of its GIN entry) and no round trip.
  created: (doc) => ({ columns: { search_vector: PAGE_VECTOR(doc) }, add: async () => {} }),
  matches(terms) {
    return sql<{
      page_id: number;
      score: number;
    }>`(select id as page_id, -ts_rank('{0.1, 0.2, 0.4, 1.0}', search_vector, q) as score
      from pages, to_tsquery('simple', ${prefixQuery(terms)}) q where search_vector @@ q)`;
  },
};
