import { sql } from 'kysely';
import type { AdoptionRow } from '../../modules/pages/adoption.js';
import type { PlanRevision, PlanRow, UpgradePlanRows } from '../../modules/pages/upgrade-plan.js';
import type { Database } from '../dialects/dialect.js';
import { StoredJson } from '../../shared/stored-json.js';
import type { FieldDefinition } from '../../modules/blocks/schema/index.js';

/**
 * The instances of a block on one user's pages, each with its page, its place
 * in the page's order and its values as stored; their revisions' fields read
 * once a revision (an instance's snapshot is a copy of its revision's).
 */
export function upgradePlanRepository({ db }: Database): UpgradePlanRows {
  return {
    async instancesOf(blockId, userId): Promise<PlanRow[]> {
      const rows = await db
        .selectFrom('page_blocks as pb')
        .innerJoin('pages', 'pages.id', 'pb.page_id')
        .where('pb.block_id', '=', blockId)
        .where('pages.owner_id', '=', userId)
        .select([
          'pb.id',
          'pb.page_id',
          'pages.name as page_name',
          'pb.revision_id',
          'pb.major',
          'pb.minor',
          'pb.placeholder_values',
          'pb.bindings',
          'pb.order_index',
        ])
        .orderBy('pb.page_id')
        .orderBy('pb.order_index')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        page_id: r.page_id,
        page_name: r.page_name,
        position: r.order_index,
        revision_id: r.revision_id,
        version: { major: r.major, minor: r.minor },
        placeholder_values: StoredJson.fromText(r.placeholder_values),
        bindings: r.bindings === null ? null : StoredJson.fromText(r.bindings),
      }));
    },

    async adoption(blockId, userId): Promise<AdoptionRow[]> {
      const rows = await db
        .selectFrom('page_blocks as pb')
        .innerJoin('pages', 'pages.id', 'pb.page_id')
        .where('pb.block_id', '=', blockId)
        .where('pages.owner_id', '=', userId)
        .groupBy(['pb.major', 'pb.minor', 'pb.page_id', 'pages.name'])
        .select(['pb.major', 'pb.minor', 'pb.page_id', 'pages.name as page_name', (eb) => eb.fn.countAll().as('n')])
        .execute();
      return rows.map((r) => ({
        version: { major: r.major, minor: r.minor },
        page_id: r.page_id,
        page_name: r.page_name,
        instances: Number(r.n),
      }));
    },

    async positions(ids): Promise<Map<number, number>> {
      if (ids.length === 0) return new Map();
      // The place in the page's order, counted (not taken from order_index, whatever its numbering): for a page of entries only.
      const rows = await db
        .selectFrom('page_blocks as pb')
        .where('pb.id', 'in', ids)
        .select([
          'pb.id',
          sql<number>`(select count(*) from page_blocks o where o.page_id = pb.page_id and o.order_index < pb.order_index)`.as(
            'position',
          ),
        ])
        .execute();
      return new Map(rows.map((r) => [r.id, Number(r.position)]));
    },

    async revisionAt(blockId, version): Promise<PlanRevision | undefined> {
      const row = await db
        .selectFrom('block_revisions')
        .where('block_id', '=', blockId)
        .where('major', '=', version.major)
        .where('minor', '=', version.minor)
        .select(['id', 'major', 'minor', 'schema_content'])
        .executeTakeFirst();
      return row && revisionOf(row);
    },

    async revisions(ids): Promise<Map<number, PlanRevision>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('block_revisions')
        .where('id', 'in', ids)
        .select(['id', 'major', 'minor', 'schema_content'])
        .execute();
      return new Map(rows.map((row) => [row.id, revisionOf(row)]));
    },
  };
}

const revisionOf = (row: { id: number; major: number; minor: number; schema_content: string }): PlanRevision => ({
  id: row.id,
  version: { major: row.major, minor: row.minor },
  schema_content: StoredJson.fromText<FieldDefinition[]>(row.schema_content).value,
});
