import { CompiledQuery, type Kysely } from 'kysely';
import type { NewInstance, PageFields } from '../../../modules/pages/pages.js';
import type { DB } from '../../schema.js';
import { namedStatement } from '../../dialects/named-statements.js';
import { FIELD_COLUMNS } from './columns.js';
import type { LibraryRow } from './instance-inserts.js';

/** One written instance as the statement answers it, in order, with its block as the statement saw it. */
export interface WrittenInstance {
  id: number;
  placeholder_values: string;
  bindings: string | null;
  block_id: number;
  name: string;
  kind: LibraryRow['kind'];
  major: number;
  minor: number;
}

type Row = { page_id: number } & { [K in keyof WrittenInstance]: WrittenInstance[K] | null };

// The instances travel as one JSON array, read by json_to_recordset: the text does not
// depend on their number. A revision deleted meanwhile is refused by the foreign key on
// revision_id (a deleted block's answer).
// Parameters: the owner, the kind, the fields (FIELD_COLUMNS' order), then `at`: the time, the
// three search texts, the instances, and version 1's author (user, via, key prefix) and summary.
// Version 1 is written by the same statement: its instances' states and the list naming them.
const at = FIELD_COLUMNS.length + 3;
const PAGE_INSERT = namedStatement(`with p as (
  insert into pages (owner_id, kind, ${FIELD_COLUMNS.join(', ')}, is_published, created_at, updated_at, version,
    search_vector)
  values ($1, $2, ${FIELD_COLUMNS.map((_, i) => `$${i + 3}`).join(', ')}, false, $${at}::timestamptz, $${at}::timestamptz, 1,
    setweight(to_tsvector('simple', $${at + 1}::text), 'A') || setweight(to_tsvector('simple', $${at + 2}::text), 'B') ||
    setweight(to_tsvector('simple', $${at + 3}::text), 'C'))
  returning id),
x as (select * from json_to_recordset($${at + 4}::json) as x(block_id integer, revision_id integer, major integer,
  minor integer, placeholder_values jsonb, bindings jsonb, parent_page_block_id integer,
  order_index integer)),
i as (
  insert into page_blocks (page_id, block_id, revision_id, major, minor, placeholder_values,
    bindings, parent_page_block_id, order_index, created_at, updated_at)
  select p.id, x.block_id, x.revision_id, x.major, x.minor, x.placeholder_values, x.bindings, x.parent_page_block_id, x.order_index, $${at}::timestamptz, $${at}::timestamptz
  from p cross join x
  returning id, page_id, block_id, revision_id, major, minor, parent_page_block_id, order_index, placeholder_values,
    bindings),
s as (
  insert into page_block_states (page_id, page_block_id, parent_page_block_id, block_id, revision_id, major, minor,
    placeholder_values, bindings)
  select i.page_id, i.id, i.parent_page_block_id, i.block_id, i.revision_id, i.major, i.minor, i.placeholder_values,
    i.bindings from i order by i.order_index
  returning id, page_block_id),
v as (
  insert into page_versions (page_id, number, created_at, actor_user_id, actor_via, actor_key_prefix, summary,
    ${FIELD_COLUMNS.join(', ')}, blocks)
  select p.id, 1, $${at}::timestamptz, $${at + 5}, $${at + 6}, $${at + 7}, $${at + 8},
    ${FIELD_COLUMNS.map((_, i) => `$${i + 3}`).join(', ')},
    coalesce((select '[' || string_agg('[' || s.page_block_id || ',' || s.id || ']', ',' order by i.order_index) || ']'
      from s join i on i.id = s.page_block_id), '[]')
  from p)
select p.id as page_id, i.id, i.placeholder_values, i.bindings, i.block_id, b.name, b.kind, cur.major, cur.minor
from p left join i on true
  left join blocks b on b.id = i.block_id
  left join block_revisions cur on cur.id = b.current_revision_id
order by i.order_index`);

/**
 * PostgreSQL: a new page, its instances and their blocks' names and current
 * versions in one statement, so one round trip and, being one statement, one
 * transaction (a page write was BEGIN, two inserts, a read and COMMIT: five).
 * Runs on `db`, which may be a transaction already open (a dry run's).
 */
export async function insertPagePostgres(
  db: Kysely<DB>,
  input: {
    ownerId: number;
    kind: string;
    fields: PageFields;
    search: { name: string; slug: string; meta: string };
    instances: NewInstance[];
    now: string;
    author: { actor_user_id: number; actor_via: string; actor_key_prefix: string | null };
    summary: string;
  },
): Promise<{ id: number; instances: WrittenInstance[] }> {
  const { fields, instances } = input;
  const rows = instances.map((instance, i) => ({
    block_id: instance.block_id,
    revision_id: instance.revision_id,
    major: instance.version.major,
    minor: instance.version.minor,
    bindings: instance.bindings,
    parent_page_block_id: instance.parent_page_block_id,
    order_index: i,
  }));
  const parameters = [
    input.ownerId,
    input.kind,
    ...FIELD_COLUMNS.map((column) => fields[column]),
    input.now,
    input.search.name,
    input.search.slug,
    input.search.meta,
    // The values' text as the builder made it, spliced in rather than serialised again.
    `[${rows
      .map((row, i) => {
        const values = instances[i]!.values_text ?? JSON.stringify(instances[i]!.placeholder_values);
        return `{"placeholder_values":${values},${JSON.stringify(row).slice(1)}`;
      })
      .join(',')}]`,
    input.author.actor_user_id,
    input.author.actor_via,
    input.author.actor_key_prefix,
    input.summary,
  ];
  const { rows: written } = await db.executeQuery<Row>(CompiledQuery.raw(PAGE_INSERT, parameters));
  const id = written[0]!.page_id;
  return { id, instances: written.filter((r) => r.id !== null) as unknown as WrittenInstance[] };
}
