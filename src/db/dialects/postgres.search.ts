import { sql, type Kysely } from 'kysely';
import { visibleInLists, type BlockSearch, type PageSearch } from './search.js';

// The 'simple' configuration: no stemming, like SQLite's unicode61, so that
// the same query finds the same blocks on both databases.
const VECTOR = (doc: { name: unknown; description: unknown; docs: unknown; tags: unknown }) => sql`
  setweight(to_tsvector('simple', ${doc.name}), 'A') ||
  setweight(to_tsvector('simple', ${doc.tags}), 'B') ||
  setweight(to_tsvector('simple', ${doc.description}), 'B') ||
  setweight(to_tsvector('simple', ${doc.docs}), 'C')`;

const prefixQuery = (terms: string[]) => terms.map((t) => `${t.replace(/[^\p{L}\p{N}]/gu, '')}:*`).join(' & ');

export const postgresBlockSearch: BlockSearch = {
  async migrate(db) {
    await sql`alter table blocks add column search_vector tsvector not null default ''::tsvector`.execute(db);
    await sql`create index blocks_search_vector on blocks using gin (search_vector)`.execute(db);
  },
  async index(db: Kysely<any>, blockId, doc) {
    await sql`update blocks set search_vector = ${VECTOR(doc)} where id = ${blockId}`.execute(db);
  },
  // The vector lives on the block itself: nothing to rebuild.
  async rebuild() {},
  async search(db, query) {
    const q = sql`to_tsquery('simple', ${prefixQuery(query.terms)})`;
    // One pass over the visible matches (GIN match and visibility on the same table, no
    // self-join) gives the page and the count: `count(*) over ()` is taken before the
    // limit. A separate count visited every matching heap page a second time (B4 at 100k).
    // ts_rank grows with relevance; descending, then by id, as SQLite's bm25 ascending.
    const { rows } = await sql<{
      id: number;
      total: string;
    }>`select id, count(*) over () as total from blocks, ${q} q
      where search_vector @@ q and ${visibleInLists(query.viewerId)}
      order by ts_rank('{0.1, 0.2, 0.4, 1.0}', search_vector, q) desc, id
      limit ${query.limit} offset ${query.offset}`.execute(db);
    if (rows.length > 0) return { ids: rows.map((r) => r.id), total: Number(rows[0]!.total) };
    if (query.offset === 0 && query.limit > 0) return { ids: [], total: 0 };
    // Past the end (or an empty page) no row carries the count: it is taken on its own.
    const counted = await sql<{
      n: string;
    }>`select count(*) as n from blocks where search_vector @@ ${q} and ${visibleInLists(query.viewerId)}`.execute(db);
    return { ids: [], total: Number(counted.rows[0]?.n ?? 0) };
  },
};

export const postgresPageSearch: PageSearch = {
  async migrate(db) {
    await sql`alter table pages add column search_vector tsvector not null default ''::tsvector`.execute(db);
    await sql`create index pages_search_vector on pages using gin (search_vector)`.execute(db);
  },
  async index(db: Kysely<any>, pageId, doc) {
    await sql`update pages set search_vector =
      setweight(to_tsvector('simple', ${doc.name}), 'A') ||
      setweight(to_tsvector('simple', ${doc.slug}), 'B') ||
      setweight(to_tsvector('simple', ${doc.meta}), 'C')
      where id = ${pageId}`.execute(db);
  },
  matches(terms) {
    return sql<{
      page_id: number;
      score: number;
    }>`(select id as page_id, -ts_rank('{0.1, 0.2, 0.4, 1.0}', search_vector, q) as score
      from pages, to_tsquery('simple', ${prefixQuery(terms)}) q where search_vector @@ q)`;
  },
};
