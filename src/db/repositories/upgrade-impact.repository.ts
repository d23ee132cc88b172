import type { ImpactRow, UpgradeImpactRows } from '../../modules/pages/upgrade-impact.js';
import type { Database } from '../dialects/dialect.js';
import type { FieldDefinition } from '../../modules/blocks/schema/index.js';
import { StoredJson } from '../../shared/stored-json.js';

/** The instances of a block on one user's pages, with their values and pinned fields as stored. */
export function upgradeImpactRepository({ db }: Database): UpgradeImpactRows {
  return {
    async instancesOf(blockId, userId): Promise<ImpactRow[]> {
      const rows = await db
        .selectFrom('page_blocks as pb')
        .innerJoin('pages', 'pages.id', 'pb.page_id')
        .innerJoin('block_revisions as pin', 'pin.id', 'pb.revision_id')
        .where('pb.block_id', '=', blockId)
        .where('pages.owner_id', '=', userId)
        .select(['pb.id', 'pb.page_id', 'pb.major', 'pb.minor', 'pb.placeholder_values', 'pb.revision_id'])
        .select('pin.schema_content as schema_snapshot')
        .orderBy('pb.page_id')
        .orderBy('pb.order_index')
        .execute();
      // The pinned revision's fields, parsed once however many instances pin it (this answer only).
      const fields = new Map<number, StoredJson<FieldDefinition[]>>();
      const fieldsOf = (r: (typeof rows)[number]) => {
        let kept = fields.get(r.revision_id);
        if (!kept) fields.set(r.revision_id, (kept = StoredJson.fromText(r.schema_snapshot)));
        return kept;
      };
      return rows.map((r) => ({
        id: r.id,
        page_id: r.page_id,
        version: { major: r.major, minor: r.minor },
        placeholder_values: StoredJson.fromText(r.placeholder_values),
        schema_snapshot: fieldsOf(r),
      }));
    },
  };
}
