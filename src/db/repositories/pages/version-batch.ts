import { sql, type Kysely } from 'kysely';
import type { Author } from '../../../modules/pages/pages.js';
import type { Database } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { FIELD_COLUMNS } from './columns.js';
import { pruneVersions } from './version-prune.js';
import { summarize, type VersionList } from './version-summary.js';
import { authorColumns, VERSION_COLUMNS } from './version-writes.js';

/** Versions a multi-row insert carries: 15 columns each, within both databases' parameter limits. */
const ROWS_A_STATEMENT = 500;

/**
 * `versions.record` for many pages written in one transaction (an upgrade
 * set), each page's row already moved to its new version: the same states and
 * versions, written by a few statements for all the pages together. A page a
 * statement each (five) was most of an upgrade of 500 pages on PostgreSQL,
 * where each is a round trip.
 */
export async function recordEach(
  { dialect }: Pick<Database, 'dialect'>,
  trx: Kysely<DB>,
  input: { pageIds: number[]; by: Author; now: string; historyLimit: number },
): Promise<void> {
  if (input.pageIds.length === 0) return;
  const listed = (column: string) =>
    sql<boolean>`${sql.ref(column)} in (select id from ${dialect.numberedIds(input.pageIds)})`;
  // An instance whose latest state differs from it gets a new one (NEW_STATES in version-writes.ts, for every page).
  await sql`insert into page_block_states (page_id, page_block_id,
      parent_page_block_id, block_id, revision_id, major, minor, placeholder_values, bindings)
    select pb.page_id, pb.id, pb.parent_page_block_id, pb.block_id, pb.revision_id, pb.major, pb.minor,
      pb.placeholder_values, pb.bindings
    from page_blocks pb
    left join page_block_states s
      on s.id = (select max(x.id) from page_block_states x where x.page_block_id = pb.id)
    where ${listed('pb.page_id')} and (s.id is null or s.revision_id <> pb.revision_id
      or s.parent_page_block_id is distinct from pb.parent_page_block_id
      or s.placeholder_values <> pb.placeholder_values or s.bindings is distinct from pb.bindings)
    order by pb.page_id, pb.order_index, pb.id`.execute(trx);
  const { rows: states } = await sql<{ page_id: number; id: number; state: number }>`
    select pb.page_id, pb.id, (select max(x.id) from page_block_states x where x.page_block_id = pb.id) as state
    from page_blocks pb where ${listed('pb.page_id')} order by pb.page_id, pb.order_index, pb.id`.execute(trx);
  const lists = new Map<number, VersionList>();
  for (const r of states) {
    const list = lists.get(Number(r.page_id)) ?? [];
    list.push([Number(r.id), Number(r.state)]);
    lists.set(Number(r.page_id), list);
  }
  const pages = await trx
    .selectFrom('pages as p')
    .leftJoin('page_versions as v', (join) =>
      join.onRef('v.page_id', '=', 'p.id').on(sql<boolean>`v.number = p.version - 1`),
    )
    .select([
      'p.id',
      'p.version',
      ...FIELD_COLUMNS.map((c) => `p.${c}` as const),
      'v.blocks as previous_blocks',
      ...FIELD_COLUMNS.map((c) => `v.${c} as previous_${c}` as const),
    ])
    .where(listed('p.id'))
    .orderBy('p.id')
    .execute();
  if (pages.length !== input.pageIds.length) throw new Error('A page vanished during its write.');
  const author = authorColumns(input.by);
  const versions = pages.map((row) => {
    const r = row as Record<string, unknown>;
    const blocks = lists.get(row.id) ?? [];
    const previous = row.previous_blocks === null ? undefined : (JSON.parse(row.previous_blocks) as VersionList);
    const metaChanged = FIELD_COLUMNS.some((c) => r[c] !== r[`previous_${c}`]);
    const version: Record<(typeof VERSION_COLUMNS)[number], unknown> = {
      page_id: row.id,
      number: row.version,
      created_at: input.now,
      ...author,
      summary: summarize(previous, blocks, previous !== undefined && metaChanged),
      ...Object.fromEntries(FIELD_COLUMNS.map((c) => [c, r[c]])),
      blocks: JSON.stringify(blocks),
    } as Record<(typeof VERSION_COLUMNS)[number], unknown>;
    return version;
  });
  for (let i = 0; i < versions.length; i += ROWS_A_STATEMENT)
    await trx
      .insertInto('page_versions')
      .values(versions.slice(i, i + ROWS_A_STATEMENT) as never)
      .execute();
  for (const page of pages)
    if (page.version > input.historyLimit) await pruneVersions(trx, page.id, input.historyLimit);
}
