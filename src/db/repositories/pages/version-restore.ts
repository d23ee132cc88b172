import { sql, type Kysely } from 'kysely';
import type { PageHistoryRepository, PageVersion } from '../../../modules/pages/history.js';
import { conflict, type FieldError } from '../../../shared/errors.js';
import type { DB } from '../../schema.js';
import { invalidReference, missingIds } from '../references.js';
import { writeOrder } from './instance-writes.js';
import type { PageWriteKit } from './page-writes.js';
import type { VersionList } from './version-summary.js';

/** The instances of `version` whose pinned revision is gone (its block deleted), each at `blocks[i]`. */
export const goneRevisions = async (db: Kysely<DB>, version: PageVersion): Promise<FieldError[]> => {
  const gone = await missingIds(
    db,
    'block_revisions',
    version.instances.map((i) => i.revision_id),
  );
  return version.instances.flatMap((instance, i) =>
    gone.has(instance.revision_id)
      ? [
          {
            path: `blocks[${i}]`,
            message: `Block ${instance.block_id} was deleted since version ${version.number}: its revision is gone.`,
            code: 'conflict' as const,
          },
        ]
      : [],
  );
};

export const cannotRestore = (number: number, errors: FieldError[]) =>
  conflict(`Version ${number} cannot be restored: see errors[]. Nothing was changed.`, errors);

/**
 * Restore as a write of the page: under its lock, its metadata and instances
 * made equal to the version's, then its next version recorded. An instance
 * still on the page keeps its id and is rewritten only when its latest state
 * is not the version's (so undoing one value change of a 200-block page writes
 * one row); one gone since comes back as a new instance; the others leave.
 */
export function versionRestore(kit: PageWriteKit): Pick<PageHistoryRepository, 'restore'> {
  const { db, dialect, lockedAt, guardSlug, answers, versions } = kit;

  const current = async (trx: Kysely<DB>, pageId: number) =>
    new Map(
      (
        await trx
          .selectFrom('page_blocks as pb')
          .select((eb) => [
            'pb.id',
            'pb.parent_page_block_id',
            eb
              .selectFrom('page_block_states as x')
              .select((x) => x.fn.max('x.id').as('m'))
              .whereRef('x.page_block_id', '=', 'pb.id')
              .as('state'),
          ])
          .where('pb.page_id', '=', pageId)
          .execute()
      ).map((r) => [r.id, { parent: r.parent_page_block_id, state: Number(r.state) }]),
    );

  return {
    async restore({ version, by, now, expected }) {
      const pageId = version.page_id;
      const list: VersionList = version.instances.map((i) => [i.id, i.state_id]);
      const write = () =>
        guardSlug(version.fields.slug, () =>
          lockedAt(pageId, expected, async (trx) => {
            const gone = await goneRevisions(trx, version);
            if (gone.length) throw cannotRestore(version.number, gone);
            const { site_id: _s, folder_id: _f, ...fields } = version.fields;
            const head = await answers.update(trx, pageId, fields, now);
            const before = await current(trx, pageId);
            const ids = new Map<number, number>();
            let free = await pastTheEnd(trx, pageId);
            for (const [id, state] of list) {
              const there = before.get(id);
              if (there && there.state === state) ids.set(id, id);
              else if (there) {
                await sql`update page_blocks set block_id = s.block_id, revision_id = s.revision_id, major = s.major,
                    minor = s.minor, placeholder_values = s.placeholder_values, bindings = s.bindings,
                    updated_at = ${now}
                  from page_block_states s
                  where s.id = ${state} and page_blocks.id = ${id}`.execute(trx);
                ids.set(id, id);
              } else {
                const row = await trx
                  .insertInto('page_blocks')
                  .columns([
                    'page_id',
                    'block_id',
                    'revision_id',
                    'major',
                    'minor',
                    'placeholder_values',
                    'bindings',
                    'parent_page_block_id',
                    'order_index',
                    'created_at',
                    'updated_at',
                  ])
                  .expression((eb) =>
                    eb
                      .selectFrom('page_block_states as s')
                      .select([
                        's.page_id',
                        's.block_id',
                        's.revision_id',
                        's.major',
                        's.minor',
                        's.placeholder_values',
                        's.bindings',
                        sql<null>`null`.as('parent'),
                        sql<number>`${free++}`.as('place'),
                        sql<string>`${now}`.as('c'),
                        sql<string>`${now}`.as('u'),
                      ])
                      .where('s.id', '=', state),
                  )
                  .returning('id')
                  .executeTakeFirstOrThrow();
                ids.set(id, row.id);
              }
            }
            // Parents as the version had them, each by its instance's id now.
            for (const instance of version.instances) {
              const id = ids.get(instance.id)!;
              const parent =
                instance.parent_page_block_id === null ? null : (ids.get(instance.parent_page_block_id) ?? null);
              const was = before.get(id);
              if (was && was.parent === parent) continue;
              await trx.updateTable('page_blocks').set({ parent_page_block_id: parent }).where('id', '=', id).execute();
            }
            const keep = new Set(ids.values());
            const leaving = [...before.keys()].filter((id) => !keep.has(id));
            if (leaving.length) await trx.deleteFrom('page_blocks').where('id', 'in', leaving).execute();
            const order = list.map(([id]) => ids.get(id)!);
            await writeOrder(trx, dialect, pageId, order, now);
            await versions.record(trx, {
              pageId,
              number: head.version,
              by,
              now,
              summaryPrefix: `restored version ${version.number}`,
            });
            return answers.answer(head, await answers.instances(trx, pageId));
          }),
        );
      // A block deleted between the check and the write: its revision's foreign key refused the row.
      return invalidReference(dialect, write, async () => {
        const gone = await goneRevisions(db, version);
        return gone.length ? cannotRestore(version.number, gone) : undefined;
      });
    },
  };
}

const pastTheEnd = async (trx: Kysely<DB>, pageId: number) => {
  const row = await trx
    .selectFrom('page_blocks')
    .select((eb) => eb.fn.max('order_index').as('last'))
    .where('page_id', '=', pageId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
};
