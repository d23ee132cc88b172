import { sql, type Kysely } from 'kysely';
import type { BlockSearch, PageSearch } from './search.js';

// bm25 weights per column (name, description, docs, tags): a name hit outweighs the rest.
const WEIGHTS = sql.raw('10.0, 3.0, 1.0, 3.0');

// Each word a quoted prefix: the user's text never becomes FTS5 syntax.
const prefixQuery = (terms: string[]) => terms.map((t) => `"${t.replace(/"/g, '""')}"*`).join(' AND ');

export const sqliteBlockSearch: BlockSearch = {
  async migrate(db) {
    await sql`create virtual table block_search using fts5(name, description, docs, tags, tokenize = 'unicode61 remove_diacritics 2')`.execute(
      db,
    );
    // Rows leave with their block, however the block goes (a user's deletion cascades too).
    await sql`create trigger block_search_delete after delete on blocks begin delete from block_search where rowid = old.id; end`.execute(
      db,
    );
  },
  async index(db: Kysely<any>, blockId, doc) {
    await sql`delete from block_search where rowid = ${blockId}`.execute(db);
    await sql`insert into block_search (rowid, name, description, docs, tags) values (${blockId}, ${doc.name}, ${doc.description}, ${doc.docs}, ${doc.tags})`.execute(
      db,
    );
  },
  matches(terms) {
    return sql<{
      block_id: number;
      score: number;
    }>`(select rowid as block_id, bm25(block_search, ${WEIGHTS}) as score from block_search where block_search match ${prefixQuery(terms)})`;
  },
};

export const sqlitePageSearch: PageSearch = {
  async migrate(db) {
    await sql`create virtual table page_search using fts5(name, slug, meta, tokenize = 'unicode61 remove_diacritics 2')`.execute(
      db,
    );
    await sql`create trigger page_search_delete after delete on pages begin delete from page_search where rowid = old.id; end`.execute(
      db,
    );
  },
  async index(db: Kysely<any>, pageId, doc) {
    await sql`delete from page_search where rowid = ${pageId}`.execute(db);
    await sql`insert into page_search (rowid, name, slug, meta) values (${pageId}, ${doc.name}, ${doc.slug}, ${doc.meta})`.execute(
      db,
    );
  },
  matches(terms) {
    return sql<{
      page_id: number;
      score: number;
    }>`(select rowid as page_id, bm25(page_search, 10.0, 3.0, 1.0) as score from page_search where page_search match ${prefixQuery(terms)})`;
  },
};
