import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';
import { checkHistory, type IntegrityScope, type Violation } from './integrity-history.js';

export type { Violation };

/**
 * References the schema declares, plus those it cannot (a nullable column
 * pointing at a row of the same table). Foreign keys enforce most of them
 * already; checking them all here costs little and catches a dialect that
 * stops enforcing one (SQLite without `foreign_keys = ON`).
 */
const REFERENCES: [table: string, column: string, target: string][] = [
  ['sessions', 'user_id', 'users'],
  ['api_keys', 'user_id', 'users'],
  ['sites', 'user_id', 'users'],
  ['sites', 'layout_id', 'layouts'],
  ['data_sources', 'result_type_id', 'data_result_types'],
  ['blocks', 'owner_id', 'users'],
  ['blocks', 'forked_from_id', 'blocks'],
  ['blocks', 'current_revision_id', 'block_revisions'],
  ['block_revisions', 'block_id', 'blocks'],
  ['block_tags', 'block_id', 'blocks'],
  ['block_tags', 'tag_id', 'tags'],
  ['favorites', 'user_id', 'users'],
  ['favorites', 'block_id', 'blocks'],
  ['collections', 'owner_id', 'users'],
  ['collection_blocks', 'collection_id', 'collections'],
  ['collection_blocks', 'block_id', 'blocks'],
  ['block_submissions', 'block_id', 'blocks'],
  ['block_submissions', 'user_id', 'users'],
  ['block_submissions', 'approved_block_id', 'blocks'],
  ['block_submissions', 'revision_id', 'block_revisions'],
  ['layouts', 'owner_id', 'users'],
  ['layouts', 'site_id', 'sites'],
  ['layouts', 'forked_from_id', 'layouts'],
  ['layout_layout_tags', 'layout_id', 'layouts'],
  ['layout_layout_tags', 'tag_id', 'layout_tags'],
  ['folders', 'owner_id', 'users'],
  ['folders', 'site_id', 'sites'],
  ['folders', 'parent_id', 'folders'],
  ['pages', 'owner_id', 'users'],
  ['pages', 'site_id', 'sites'],
  ['pages', 'folder_id', 'folders'],
  ['page_blocks', 'page_id', 'pages'],
  ['page_blocks', 'block_id', 'blocks'],
  ['page_blocks', 'revision_id', 'block_revisions'],
  ['page_blocks', 'parent_page_block_id', 'page_blocks'],
  ['site_providers', 'site_id', 'sites'],
  ['uploads', 'user_id', 'users'],
];

/** Invariants that span rows, which no single constraint states. */
const RULES: [check: string, query: string][] = [
  [
    // Each page's instances are ordered 0..n-1, no gap, no duplicate.
    'page_blocks.order_index is 0..n-1 on each page',
    `select page_id, count(*) as n, count(distinct order_index) as distinct_n, min(order_index) as min_index, max(order_index) as max_index
       from page_blocks group by page_id
       having count(distinct order_index) <> count(*) or min(order_index) <> 0 or max(order_index) <> count(*) - 1`,
  ],
  [
    // An instance is pinned to a revision of its own block, and says which.
    'page_blocks pinned to a revision of their block, same major.minor',
    `select pb.id, pb.block_id, pb.revision_id, r.block_id as revision_block_id
       from page_blocks pb join block_revisions r on r.id = pb.revision_id
      where r.block_id <> pb.block_id or r.major <> pb.major or r.minor <> pb.minor`,
  ],
  [
    'page_blocks nested only under an instance of the same page',
    `select pb.id, pb.page_id, parent.page_id as parent_page_id
       from page_blocks pb join page_blocks parent on parent.id = pb.parent_page_block_id
      where parent.page_id <> pb.page_id`,
  ],
  [
    'blocks.current_revision_id is a revision of that block',
    `select b.id, b.current_revision_id, r.block_id as revision_block_id
       from blocks b join block_revisions r on r.id = b.current_revision_id
      where r.block_id <> b.id`,
  ],
  [
    'a submission keeps a revision of the block submitted, and a pending one keeps one',
    `select s.id, s.block_id, s.revision_id, r.block_id as revision_block_id
       from block_submissions s left join block_revisions r on r.id = s.revision_id
      where r.block_id <> s.block_id or (s.status = 'pending' and s.revision_id is null)`,
  ],
  [
    'a block with revisions has a current revision',
    `select b.id from blocks b
      where b.current_revision_id is null and exists (select 1 from block_revisions r where r.block_id = b.id)`,
  ],
  [
    'block revisions are unique per block and version',
    `select block_id, major, minor, count(*) as n from block_revisions
      group by block_id, major, minor having count(*) > 1`,
  ],
  [
    'a folder lies in the site of its parent',
    `select f.id, f.site_id, p.site_id as parent_site_id
       from folders f join folders p on p.id = f.parent_id
      where p.site_id <> f.site_id`,
  ],
  [
    'a page lies in the site of its folder',
    `select p.id, p.site_id, f.site_id as folder_site_id
       from pages p join folders f on f.id = p.folder_id
      where p.site_id is null or f.site_id <> p.site_id`,
  ],
];

const SAMPLE = 5;

/**
 * Checks the invariants of the stored data; an empty list means intact.
 * Used after fuzzing and after a crash, on both databases. `scope` narrows
 * the history's comparison (integrity-history.ts); the rest is always whole.
 */
export async function checkIntegrity(db: Kysely<DB>, scope: IntegrityScope = {}): Promise<Violation[]> {
  const checks: [check: string, query: string][] = [
    ...REFERENCES.map(([table, column, target]): [string, string] => [
      `${table}.${column} references an existing ${target} row`,
      `select t.${column} as missing from ${table} t
        where t.${column} is not null and not exists (select 1 from ${target} x where x.id = t.${column})`,
    ]),
    [
      'pages.kind is a known page type',
      `select p.id, p.kind from pages p where not exists (select 1 from page_types t where t.kind = p.kind)`,
    ],
    ...RULES,
  ];
  const query = (text: string) => sql.raw(`${text} limit ${SAMPLE}`).execute(db);
  // All at once on the pool: on PostgreSQL each is a round trip, and the model-based test checks after many
  // steps. One after another in a transaction, whose one connection runs one query at a time.
  const found: Awaited<ReturnType<typeof query>>[] = [];
  if (db.isTransaction) for (const [, text] of checks) found.push(await query(text));
  else found.push(...(await Promise.all(checks.map(([, text]) => query(text)))));
  const history = await checkHistory(db, scope);
  const violations: Violation[] = checks.flatMap(([check], i) =>
    found[i]!.rows.length ? [{ check, rows: found[i]!.rows }] : [],
  );
  return [...violations, ...history];
}
