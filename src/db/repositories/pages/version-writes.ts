import { sql, type Kysely } from 'kysely';
import type { Author, PageFields } from '../../../modules/pages/pages.js';
import type { Database } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { compiledOnce } from '../../prepared.js';
import { FIELD_COLUMNS } from './columns.js';
import { pruneVersions } from './version-prune.js';
import { summarize, type VersionList } from './version-summary.js';

/**
 * Marks version `number` of the page as sent to the provider: a published
 * version is never pruned. A version pruned meanwhile (the page moved past
 * the limit during the publication) is left as it is.
 */
export const markVersionPublished = (db: Kysely<DB>, pageId: number, number: number) =>
  db
    .updateTable('page_versions')
    .set({ published: true })
    .where('page_id', '=', pageId)
    .where('number', '=', number)
    .execute();

/** The columns of a version that say who made it. */
export const authorColumns = (by: Author) => ({
  actor_user_id: by.userId,
  actor_via: by.via?.kind ?? 'system',
  actor_key_prefix: by.via && by.via.kind !== 'session' ? by.via.keyPrefix : null,
});

/**
 * An instance gets a new state when it has none yet or differs from its latest
 * (pin, parent, values, bindings): compared by the database, so that a write
 * of one value of a 200-block page sends and copies nothing of the other 199.
 */
const NEW_STATES = (pageId: number) => sql<never>`insert into page_block_states (page_id, page_block_id,
    parent_page_block_id, block_id, revision_id, major, minor, placeholder_values, bindings)
  select pb.page_id, pb.id, pb.parent_page_block_id, pb.block_id, pb.revision_id, pb.major, pb.minor,
    pb.placeholder_values, pb.bindings
  from page_blocks pb
  left join page_block_states s
    on s.id = (select max(x.id) from page_block_states x where x.page_block_id = pb.id)
  where pb.page_id = ${pageId} and (s.id is null or s.revision_id <> pb.revision_id
    or s.parent_page_block_id is distinct from pb.parent_page_block_id
    or s.placeholder_values <> pb.placeholder_values or s.bindings is distinct from pb.bindings)
  order by pb.order_index, pb.id`;

/** A new page's instances, each its first state: nothing to compare with. */
const FIRST_STATES = (pageId: number) => sql<{ id: number; page_block_id: number }>`insert into page_block_states
    (page_id, page_block_id, parent_page_block_id, block_id, revision_id, major, minor, placeholder_values, bindings)
  select page_id, id, parent_page_block_id, block_id, revision_id, major, minor, placeholder_values, bindings
  from page_blocks where page_id = ${pageId}
  returning id, page_block_id`;

export const VERSION_COLUMNS = [
  'page_id',
  'number',
  'created_at',
  'actor_user_id',
  'actor_via',
  'actor_key_prefix',
  'summary',
  ...FIELD_COLUMNS,
  'blocks',
] as const;

/**
 * Every write of a page ends here, in its transaction, with the page's row
 * already at its new version number: one version per successful write, gone
 * with the write when it rolls back (a dry run, a failure).
 */
export function versionWrites(database: Database, options: { historyLimit: number }) {
  const { db } = database;
  const newStates = compiledOnce(1, (pageId: number) => ({ compile: () => NEW_STATES(pageId).compile(db) }));
  const firstStates = compiledOnce(1, (pageId: number) => ({ compile: () => FIRST_STATES(pageId).compile(db) }));
  // Parameters in VERSION_COLUMNS' order.
  const insertVersion = compiledOnce(VERSION_COLUMNS.length, (...values: unknown[]) =>
    db.insertInto('page_versions').values(Object.fromEntries(VERSION_COLUMNS.map((c, i) => [c, values[i]])) as never),
  );
  const list = compiledOnce(1, (pageId: number) =>
    db
      .selectFrom('page_blocks as pb')
      .select((eb) => [
        'pb.id',
        eb
          .selectFrom('page_block_states as x')
          .select((x) => x.fn.max('x.id').as('m'))
          .whereRef('x.page_block_id', '=', 'pb.id')
          .as('state'),
      ])
      .where('pb.page_id', '=', pageId)
      .orderBy('pb.order_index')
      .orderBy('pb.id'),
  );
  const fields = compiledOnce(2, (pageId: number, previous: number) =>
    db
      .selectFrom('pages as p')
      .leftJoin('page_versions as v', (join) => join.onRef('v.page_id', '=', 'p.id').on('v.number', '=', previous))
      .select([
        ...FIELD_COLUMNS.map((c) => `p.${c}` as const),
        'v.blocks as previous_blocks',
        ...FIELD_COLUMNS.map((c) => `v.${c} as previous_${c}` as const),
      ])
      .where('p.id', '=', pageId),
  );

  return {
    /**
     * Version 1 of a page just created in `trx` (SQLite's create: PostgreSQL's
     * writes it in its one statement): every instance's first state, and the
     * list in the order of `instanceIds`.
     */
    async first(
      trx: Kysely<DB>,
      input: { pageId: number; instanceIds: number[]; fields: PageFields; by: Author; now: string },
    ) {
      const { rows } = await trx.executeQuery(firstStates(input.pageId));
      const stateOf = new Map(rows.map((r) => [Number(r.page_block_id), Number(r.id)]));
      const blocks: VersionList = input.instanceIds.map((id) => [id, stateOf.get(id)!]);
      const author = authorColumns(input.by);
      const row: Record<(typeof VERSION_COLUMNS)[number], unknown> = {
        page_id: input.pageId,
        number: 1,
        created_at: input.now,
        ...author,
        summary: summarize(undefined, blocks, false),
        ...input.fields,
        blocks: JSON.stringify(blocks),
      };
      await trx.executeQuery(insertVersion(...VERSION_COLUMNS.map((c) => row[c])));
    },

    /**
     * Records version `number` of the page as it now stands in `trx`. A
     * version past the history's limit takes the oldest unpublished one out.
     */
    async record(
      trx: Kysely<DB>,
      input: { pageId: number; number: number; by: Author; now: string; summaryPrefix?: string },
    ) {
      const { pageId, number } = input;
      await trx.executeQuery(newStates(pageId));
      const rows = (await trx.executeQuery(list(pageId))).rows;
      const blocks: VersionList = rows.map((r) => [Number(r.id), Number(r.state)]);
      const [row] = (await trx.executeQuery(fields(pageId, number - 1))).rows;
      if (!row) throw new Error(`Page ${pageId} vanished during its write.`);
      const r = row as Record<string, unknown>;
      const metaChanged = FIELD_COLUMNS.some((c) => r[c] !== r[`previous_${c}`]);
      const previous = row.previous_blocks === null ? undefined : (JSON.parse(row.previous_blocks) as VersionList);
      const version: Record<(typeof VERSION_COLUMNS)[number], unknown> = {
        page_id: pageId,
        number,
        created_at: input.now,
        ...authorColumns(input.by),
        summary: [input.summaryPrefix, summarize(previous, blocks, previous !== undefined && metaChanged)]
          .filter(Boolean)
          .join(': '),
        ...Object.fromEntries(FIELD_COLUMNS.map((c) => [c, r[c]])),
        blocks: JSON.stringify(blocks),
      } as Record<(typeof VERSION_COLUMNS)[number], unknown>;
      await trx.executeQuery(insertVersion(...VERSION_COLUMNS.map((c) => version[c])));
      if (number > options.historyLimit) await pruneVersions(trx, pageId, options.historyLimit);
    },
  };
}

export type VersionWrites = ReturnType<typeof versionWrites>;
