import type { ImpactRow, UpgradeImpactRows } from '../../modules/pages/upgrade-impact.js';
import type { Database } from '../dialects/dialect.js';
import { StoredJson } from '../../shared/stored-json.js';

/** The instances of a block on one user's pages, with their values and pinned fields as stored. */
export function upgradeImpactRepository({ db }: Database): UpgradeImpactRows {
  return {
    async instancesOf(blockId, userId): Promise<ImpactRow[]> {
      const rows = await db
        .selectFrom('page_blocks as pb')
        .innerJoin('pages', 'pages.id', 'pb.page_id')
        .where('pb.block_id', '=', blockId)
        .where('pages.owner_id', '=', userId)
        .select(['pb.id', 'pb.page_id', 'pb.major', 'pb.minor', 'pb.placeholder_values', 'pb.schema_snapshot'])
        .orderBy('pb.page_id')
        .orderBy('pb.order_index')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        page_id: r.page_id,
        version: { major: r.major, minor: r.minor },
        placeholder_values: StoredJson.fromText(r.placeholder_values),
        schema_snapshot: StoredJson.fromText(r.schema_snapshot),
      }));
    },
  };
}
