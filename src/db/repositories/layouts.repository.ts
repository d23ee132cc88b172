import { conflict, notFound } from '../../shared/errors.js';
import { siteNotFound } from '../../modules/sites/sites.js';
import type { LayoutsRepository, OwnedLayout } from '../../modules/layouts/layouts.js';
import type { Database } from '../dialects/dialect.js';
import { countOf } from './rows.js';
import { readAll } from '../read-all.js';
import { invalidReference, isGone } from './references.js';

const COLUMNS = [
  'id',
  'owner_id',
  'name',
  'scope',
  'site_id',
  'template',
  'css',
  'js',
  'fork_count',
  'forked_from_id',
  'created_at',
  'updated_at',
] as const;

export function layoutsRepository({ db, dialect }: Database): LayoutsRepository {
  async function withTags<T extends { id: number }>(rows: T[]): Promise<(T & { tags: number[] })[]> {
    if (rows.length === 0) return [];
    const links = await db
      .selectFrom('layout_layout_tags')
      .select(['layout_id', 'tag_id'])
      .where(
        'layout_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('tag_id')
      .execute();
    return rows.map((r) => ({ ...r, tags: links.filter((l) => l.layout_id === r.id).map((l) => l.tag_id) }));
  }

  /**
   * A layout's site, or the layout it is forked from, deleted since the service read it:
   * the foreign keys refuse the write, answered as the service answers for one already gone.
   */
  const referencesGone = async (siteId: number | null | undefined, forkedFromId?: number) => {
    if (await isGone(db, 'sites', siteId)) return siteNotFound(siteId!);
    if (await isGone(db, 'layouts', forkedFromId)) return notFound(`Layout ${forkedFromId} not found.`);
    return undefined;
  };

  return {
    async list(viewerId, page) {
      const base = db
        .selectFrom('layouts')
        .where((eb) => eb.or([eb('scope', '=', 'global'), eb('owner_id', '=', viewerId)]));
      const [rows, total] = await readAll(
        db,
        () => base.select(COLUMNS).orderBy('id').limit(page.limit).offset(page.offset).execute(),
        () => base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst(),
      );
      return { rows: (await withTags(rows)).map(({ owner_id: _o, ...l }) => l), total: countOf(total) };
    },
    async find(id): Promise<OwnedLayout | undefined> {
      const row = await db.selectFrom('layouts').select(COLUMNS).where('id', '=', id).executeTakeFirst();
      return row ? (await withTags([row]))[0] : undefined;
    },
    async missingTags(ids) {
      const found = new Set(
        (await db.selectFrom('layout_tags').select('id').where('id', 'in', ids).execute()).map((t) => t.id),
      );
      return ids.filter((id) => !found.has(id));
    },
    async create(input) {
      const write = () =>
        db.transaction().execute(async (trx) => {
          const { id } = await trx
            .insertInto('layouts')
            .values({
              owner_id: input.ownerId,
              scope: input.scope,
              ...input.fields,
              forked_from_id: input.forkedFromId ?? null,
              created_at: input.now,
              updated_at: input.now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const tags = [...new Set(input.tags)];
          if (tags.length)
            await trx
              .insertInto('layout_layout_tags')
              .values(tags.map((tag_id) => ({ layout_id: id, tag_id })))
              .execute();
          if (input.forkedFromId !== undefined) {
            await trx
              .updateTable('layouts')
              .set((eb) => ({ fork_count: eb('fork_count', '+', 1) }))
              .where('id', '=', input.forkedFromId)
              .execute();
          }
          return id;
        });
      return invalidReference(dialect, write, () => referencesGone(input.fields.site_id, input.forkedFromId));
    },
    async update(input) {
      const write = () =>
        db.transaction().execute(async (trx) => {
          await trx
            .updateTable('layouts')
            .set({ ...input.fields, updated_at: input.now })
            .where('id', '=', input.id)
            .execute();
          if (input.tags) {
            await trx.deleteFrom('layout_layout_tags').where('layout_id', '=', input.id).execute();
            const tags = [...new Set(input.tags)];
            if (tags.length)
              await trx
                .insertInto('layout_layout_tags')
                .values(tags.map((tag_id) => ({ layout_id: input.id, tag_id })))
                .execute();
          }
        });
      await invalidReference(dialect, write, () => referencesGone(input.fields.site_id));
    },
    async delete(id) {
      const bound = (siteId: number) =>
        conflict(`Layout ${id} is the layout of site ${siteId}: give the site another layout first.`);
      await invalidReference(
        dialect,
        () =>
          db.transaction().execute(async (trx) => {
            // The layout row is locked first, so a site cannot take it between the check and the delete.
            await dialect.forUpdate(trx.selectFrom('layouts').select('id').where('id', '=', id)).execute();
            const site = await trx.selectFrom('sites').select('id').where('layout_id', '=', id).executeTakeFirst();
            if (site) throw bound(site.id);
            await trx.deleteFrom('layouts').where('id', '=', id).execute();
          }),
        // sites.layout_id restricts: a site that took the layout after the check holds it back.
        async () => {
          const site = await db.selectFrom('sites').select('id').where('layout_id', '=', id).executeTakeFirst();
          return site && bound(site.id);
        },
      );
    },
  };
}
