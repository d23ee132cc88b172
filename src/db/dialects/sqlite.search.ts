import { sql, type Kysely } from 'kysely';
import type { Database } from './dialect.js';
import {
  revisionJoin,
  selectNow,
  visibleInLists,
  type BlockSearch,
  type BlockSearchQuery,
  type PageSearch,
  type PageSearchDocument,
  type SearchColumns,
} from './search.js';

// bm25 weights per column (name, description, docs, tags, vis): a name hit outweighs the rest;
// the visibility token never counts.
const WEIGHTS = sql.raw('10.0, 3.0, 1.0, 3.0, 0.0');

// Each word a quoted prefix: the user's text never becomes FTS5 syntax.
const prefixQuery = (terms: string[]) => terms.map((t) => `"${t.replace(/"/g, '""')}"*`).join(' AND ');

// Only the text columns: a word never matches a visibility token.
const textQuery = (terms: string[]) => `{name description docs tags} : (${prefixQuery(terms)})`;

/**
 * Who sees a block in lists, as one token in the `vis` column: `global`,
 * `deprecated` (a global block no list shows) or `u<owner>` (a user's block,
 * deprecated or not). The count then stays inside the full-text index.
 */
const VISIBILITY = (b: string) =>
  `case when ${b}.scope = 'global' then (case when ${b}.is_deprecated then 'deprecated' else 'global' end) else 'u' || ${b}.owner_id end`;

export const sqliteBlockSearch: BlockSearch = {
  async migrate(db) {
    await sql`create virtual table block_search using fts5(name, description, docs, tags, vis, tokenize = 'unicode61 remove_diacritics 2')`.execute(
      db,
    );
    // Rows leave with their block, however the block goes (a user's deletion cascades too).
    await sql`create trigger block_search_delete after delete on blocks begin delete from block_search where rowid = old.id; end`.execute(
      db,
    );
    // The token follows the block, whatever changes it (deprecation, scope, owner).
    await sql
      .raw(
        `create trigger block_search_visibility after update of scope, owner_id, is_deprecated on blocks
         begin update block_search set vis = ${VISIBILITY('new')} where rowid = new.id; end`,
      )
      .execute(db);
  },
  async rebuild(db) {
    await sql`drop trigger if exists block_search_visibility`.execute(db);
    await sql`drop trigger if exists block_search_delete`.execute(db);
    await sql`drop table if exists block_search`.execute(db);
    await sqliteBlockSearch.migrate(db);
    await sql
      .raw(
        `insert into block_search (rowid, name, description, docs, tags, vis)
         select b.id, b.name, b.description, b.docs,
           coalesce((select group_concat(t.name, ' ') from block_tags bt join tags t on t.id = bt.tag_id where bt.block_id = b.id), ''),
           ${VISIBILITY('b')}
         from blocks b`,
      )
      .execute(db);
  },
  async index(db: Kysely<any>, blockId, doc) {
    await sql`delete from block_search where rowid = ${blockId}`.execute(db);
    await sql`insert into block_search (rowid, name, description, docs, tags, vis)
      select id, ${doc.name}, ${doc.description}, ${doc.docs}, ${doc.tags}, ${sql.raw(VISIBILITY('blocks'))}
      from blocks where id = ${blockId}`.execute(db);
  },
  tagIds: sql`(select group_concat(tag_id, ',' order by tag_id) from block_tags where block_id = blocks.id)`,
  async search(db: Kysely<any>, query: BlockSearchQuery, columns: SearchColumns, readNow?: Database['readNow']) {
    const text = textQuery(query.terms);
    // Past Kysely's chain (~60 µs a statement) where `readNow` can: on the spot, outside
    // any open transaction.
    const counted = await selectNow(
      db,
      sql<{
        n: number;
      }>`select count(*) as n from block_search where block_search match ${`${text} AND vis : (global OR u${query.viewerId})`}`,
      readNow,
    );
    const total = Number(counted[0]?.n ?? 0);
    const wanted = Math.min(total, query.offset + query.limit);
    if (query.offset >= wanted) return { rows: [], total };
    // The best `k` matches are ranked inside the index, and only they are joined to
    // their blocks; when too few of them are visible, `k` grows. Ranking every match
    // and joining it before sorting cost four times as much at 100k blocks.
    let visible: number[] = [];
    for (let k = wanted; ; k *= 4) {
      const rows = await selectNow(
        db,
        sql<{ id: number; visible: number }>`
        select m.block_id as id, ${visibleInLists(query.viewerId)} as visible
        from (
          select rowid as block_id, bm25(block_search, ${WEIGHTS}) as score
          from block_search where block_search match ${text}
          order by score, rowid limit ${k}
        ) m
        join blocks on blocks.id = m.block_id
        order by m.score, m.block_id`,
        readNow,
      );
      visible = rows.filter((r) => r.visible).map((r) => r.id);
      if (visible.length >= wanted || rows.length < k) break;
    }
    // The page's blocks in one statement, in the ranking's order (json_each's key), as one
    // JSON text of arrays built by SQLite: libsql converts each value it returns (~0.4 µs),
    // a page of 50 blocks has 1,300 of them, and naming them costs as much again; one text
    // and JSON.parse cost a fifth of that.
    const page = visible.slice(query.offset, wanted);
    const [read] = await selectNow(
      db,
      sql<{ page: string }>`select json_group_array(json_array(${sql.join(columns)}) order by m.key) as page
        from json_each(${JSON.stringify(page)}) m
        join blocks on blocks.id = m.value
        ${revisionJoin}`,
      readNow,
    );
    const rows = JSON.parse(read!.page) as unknown[][];
    return { rows, total };
  },
};

const addPage = async (db: Kysely<any>, pageId: number, doc: PageSearchDocument) => {
  await sql`insert into page_search (rowid, name, slug, meta) values (${pageId}, ${doc.name}, ${doc.slug}, ${doc.meta})`.execute(
    db,
  );
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
    await addPage(db, pageId, doc);
  },
  created: (doc) => ({ columns: {}, add: (db, pageId) => addPage(db, pageId, doc) }),
  matches(terms) {
    return sql<{
      page_id: number;
      score: number;
    }>`(select rowid as page_id, bm25(page_search, 10.0, 3.0, 1.0) as score from page_search where page_search match ${prefixQuery(terms)})`;
  },
};
