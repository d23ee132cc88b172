import { sql, type Kysely } from 'kysely';
import { conflict } from '../../../shared/errors.js';
import type { Author } from '../../../modules/pages/pages.js';
import type { PageUpgrade } from '../../../modules/pages/upgrade-sets.js';
import type { Database, JsonRowColumn } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { toJson } from '../rows.js';
import { recordEach } from './version-batch.js';

/** Instances one statement re-pins: their rows go as one JSON parameter (a few hundred KB). */
const ROWS_A_STATEMENT = 1000;

const REPIN_COLUMNS: JsonRowColumn[] = [
  ['id', 'integer'],
  ['page_id', 'integer'],
  ['revision_id', 'integer'],
  ['major', 'integer'],
  ['minor', 'integer'],
  ['placeholder_values', 'json'],
  ['bindings', 'json'],
];

const changedSince = (pageId: number, position: number, detail: string) => {
  const message = `Page ${pageId} changed since the plan was read (${detail}): nothing was upgraded; try again.`;
  return conflict(message, [{ path: `pages[${position}]`, message, code: 'conflict' }]);
};

/**
 * Many pages' instances re-pinned in the transaction `trx` (an upgrade set),
 * each page gaining one version, in a handful of statements whatever the
 * number of pages: their rows locked in page id order (two sets over the same
 * pages never wait on each other in a circle), every instance checked still
 * on the revision the plan read (else a `conflict` at `pages[i]`, `i` its
 * place in `pages`), the pages moved to their next version, the instances
 * rewritten, and every page's version recorded. Answers each page's version
 * before and after, in the order of `pages`.
 */
export async function repinEach(
  database: Database,
  trx: Kysely<DB>,
  input: { pages: PageUpgrade[]; now: string; by: Author; historyLimit: number },
): Promise<Array<{ before: number; after: number }>> {
  const { dialect } = database;
  const { pages, now, by } = input;
  const pageIds = pages.map((p) => p.pageId);
  const listed = (column: string, ids: number[]) =>
    sql<boolean>`${sql.ref(column)} in (select id from ${dialect.numberedIds(ids)})`;

  const locked = await dialect
    .forUpdate(trx.selectFrom('pages').select(['id', 'version']).where(listed('id', pageIds)).orderBy('id'))
    .execute();
  const versionOf = new Map(locked.map((p) => [p.id, p.version]));
  for (const [position, page] of pages.entries())
    if (!versionOf.has(page.pageId)) throw changedSince(page.pageId, position, 'it was deleted');

  const changes = pages.flatMap((page, position) => page.changes.map((change) => ({ page, position, change })));
  const standing = new Map(
    (
      await trx
        .selectFrom('page_blocks')
        .select(['id', 'page_id', 'revision_id'])
        .where(
          listed(
            'id',
            changes.map((c) => c.change.pageBlockId),
          ),
        )
        .execute()
    ).map((r) => [r.id, r]),
  );
  for (const { page, position, change } of changes) {
    const now_ = standing.get(change.pageBlockId);
    if (now_?.page_id !== page.pageId || now_.revision_id !== change.expectRevisionId)
      throw changedSince(page.pageId, position, `instance ${change.pageBlockId}`);
  }

  // The pages first: PostgreSQL's triggers then leave the rows this transaction already moved (content_version).
  await trx
    .updateTable('pages')
    .set((eb) => ({ version: eb('version', '+', 1), updated_at: now }))
    .where(listed('id', pageIds))
    .execute();
  for (let i = 0; i < changes.length; i += ROWS_A_STATEMENT) {
    const rows = changes.slice(i, i + ROWS_A_STATEMENT).map(({ page, change: { pageBlockId, instance } }) => ({
      id: pageBlockId,
      page_id: page.pageId,
      revision_id: instance.revision_id,
      major: instance.version.major,
      minor: instance.version.minor,
      placeholder_values: instance.values_text ?? toJson(instance.placeholder_values),
      bindings: instance.bindings === null ? null : toJson(instance.bindings),
    }));
    await sql`update page_blocks set revision_id = v.revision_id, major = v.major, minor = v.minor,
        placeholder_values = v.placeholder_values, bindings = v.bindings, updated_at = ${now}
      from ${dialect.jsonRows(JSON.stringify(rows), 'v', REPIN_COLUMNS)}
      where page_blocks.id = v.id and page_blocks.page_id = v.page_id`.execute(trx);
  }
  await recordEach(database, trx, { pageIds, by, now, historyLimit: input.historyLimit });
  return pages.map((page) => {
    const before = versionOf.get(page.pageId)!;
    return { before, after: before + 1 };
  });
}
