import type { Kysely } from 'kysely';
import type { NewInstance, PageBlockView, PageChange, PageView, WrittenPage } from '../../../modules/pages/pages.js';
import type { Database } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { compiledOnce } from '../../prepared.js';
import type { LibraryRow } from './instance-inserts.js';
import { blockView, instancesView } from './page-view.js';
import { bool } from '../rows.js';
import { updateStatusOf } from '../update-status.js';
import { HEAD_COLUMNS } from './columns.js';

/**
 * A page write's answer, built inside its transaction from what it wrote (the
 * page row an update returns, the instances an insert returns, their blocks read
 * once) and from the instances it read under the page's lock: no read of the
 * page after the commit. `test/api/page-body.test.ts` compares it with a read's bytes.
 */
export function pageAnswers(database: Database) {
  const compact = database.dialect.compactJson;
  const toBlock = blockView(compact);
  const instancesOf = compiledOnce(1, (pageId: number) => instancesView(database.db, pageId));
  // A write's answer moves the page to its next version (see version-writes.ts).
  const touchQuery = compiledOnce(2, (pageId: number, now: string) =>
    database.db
      .updateTable('pages')
      .set((eb) => ({ updated_at: now, version: eb('version', '+', 1) }))
      .where('id', '=', pageId)
      .returning(HEAD_COLUMNS),
  );

  return {
    /** The page's instances as the transaction sees them, in order. */
    async instances(trx: Kysely<DB>, pageId: number): Promise<PageBlockView[]> {
      return (await trx.executeQuery(instancesOf(pageId))).rows.map(toBlock);
    },

    /** Moves the page's `updated_at` and version; its row as it now stands. */
    async touch(trx: Kysely<DB>, pageId: number, now: string) {
      const [row] = (await trx.executeQuery(touchQuery(pageId, now))).rows;
      return row!;
    },

    /** Writes the page's fields and moves its version; its row as it now stands. */
    update: (trx: Kysely<DB>, pageId: number, fields: PageChange, now: string) =>
      trx
        .updateTable('pages')
        .set((eb) => ({ ...fields, updated_at: now, version: eb('version', '+', 1) }))
        .where('id', '=', pageId)
        .returning(HEAD_COLUMNS)
        .executeTakeFirstOrThrow(),

    /** Instances just inserted, from the insert's rows and their blocks as the transaction sees them. */
    written(
      instances: NewInstance[],
      rows: Array<{ id: number; placeholder_values: string; bindings: string | null }>,
      library: Map<number, Pick<LibraryRow, 'id' | 'name' | 'kind' | 'major' | 'minor'>>,
      from = 0,
    ): PageBlockView[] {
      return instances.map((instance, i): PageBlockView => {
        const block = library.get(instance.block_id);
        // The foreign key stopped a write whose block is gone; a block always keeps a current revision.
        if (!block) throw new Error(`Block ${instance.block_id} vanished during a page write.`);
        const row = rows[i]!;
        return {
          id: row.id,
          block: { id: block.id, name: block.name, kind: block.kind },
          order_index: from + i,
          placeholder_values_json: compact ? compact(row.placeholder_values) : row.placeholder_values,
          bindings_json: row.bindings === null ? null : compact ? compact(row.bindings) : row.bindings,
          parent_page_block_id: instance.parent_page_block_id,
          version: instance.version,
          update_status: updateStatusOf(instance.version, block),
        };
      });
    },

    /** The answer: the page's row and its instances (`has_outdated_blocks` by the same rule as the SQL's). */
    answer(
      head: Omit<PageView, 'blocks' | 'has_outdated_blocks' | 'is_published'> & { is_published: boolean | number },
      blocks: PageBlockView[],
    ): WrittenPage & { blocks: PageBlockView[] } {
      return {
        ...head,
        is_published: bool(head.is_published),
        has_outdated_blocks: blocks.some((b) => b.update_status !== 'up_to_date'),
        blocks,
      };
    },
  };
}
