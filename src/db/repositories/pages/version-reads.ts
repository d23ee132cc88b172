import { sql, type Kysely } from 'kysely';
import type { ActorVia, PageHistoryRepository, PageVersion, VersionEntry } from '../../../modules/pages/history.js';
import type { Database } from '../../dialects/dialect.js';
import type { DB } from '../../schema.js';
import { bool } from '../rows.js';
import { updateStatusOf } from '../update-status.js';
import { FIELD_COLUMNS } from './columns.js';
import type { VersionList } from './version-summary.js';

const ENTRY_COLUMNS = [
  'v.number',
  'v.created_at',
  'v.actor_user_id',
  'u.email as actor_email',
  'v.actor_via',
  'v.actor_key_prefix',
  'v.summary',
  'v.published',
] as const;

type EntryRow = {
  number: number;
  created_at: string;
  actor_user_id: number | null;
  actor_email: string | null;
  actor_via: string;
  actor_key_prefix: string | null;
  summary: string;
  published: boolean | number;
};

const entryOf = (r: EntryRow): VersionEntry => ({
  number: r.number,
  created_at: r.created_at,
  actor: {
    user_id: r.actor_user_id,
    email: r.actor_email,
    via: r.actor_via as ActorVia,
    key_prefix: r.actor_key_prefix,
  },
  summary: r.summary,
  published: bool(r.published),
});

/** A page's history as read: the list of versions, a version whole, the revisions it pinned. */
export function versionReads(
  database: Pick<Database, 'db' | 'dialect'>,
  db: Kysely<DB> = database.db,
): Pick<PageHistoryRepository, 'list' | 'find' | 'revisions'> {
  const compact = database.dialect.compactJson;
  const entries = (pageId: number) =>
    db
      .selectFrom('page_versions as v')
      .leftJoin('users as u', 'u.id', 'v.actor_user_id')
      .where('v.page_id', '=', pageId);

  return {
    async list(pageId, page) {
      const [rows, count] = await Promise.all([
        entries(pageId)
          .select(ENTRY_COLUMNS)
          .orderBy('v.number', 'desc')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        db
          .selectFrom('page_versions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('page_id', '=', pageId)
          .executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(entryOf), total: Number(count.n) };
    },

    async find(pageId, number, options = { library: true }): Promise<PageVersion | undefined> {
      const { library } = options;
      const row = await entries(pageId)
        .select([...ENTRY_COLUMNS, 'v.page_id', 'v.blocks', ...FIELD_COLUMNS.map((c) => `v.${c}` as const)])
        .where('v.number', '=', number)
        .executeTakeFirst();
      if (!row) return undefined;
      const list = JSON.parse(row.blocks) as VersionList;
      const states = list.length
        ? await db
            .selectFrom('page_block_states as s')
            .leftJoin('blocks as b', (j) => (library ? j.onRef('b.id', '=', 's.block_id') : j.on(sql.lit(false))))
            .leftJoin('block_revisions as cur', 'cur.id', 'b.current_revision_id')
            .leftJoin('block_revisions as r', (j) =>
              library ? j.onRef('r.id', '=', 's.revision_id') : j.on(sql.lit(false)),
            )
            .select([
              's.id',
              's.page_block_id',
              's.parent_page_block_id',
              's.block_id',
              's.revision_id',
              's.major',
              's.minor',
              's.placeholder_values',
              's.bindings',
              'b.name',
              'b.kind',
              'b.block_type',
              'cur.major as cur_major',
              'cur.minor as cur_minor',
              'r.id as revision_found',
            ])
            .where(
              's.id',
              'in',
              list.map(([, state]) => state),
            )
            .execute()
        : [];
      const byId = new Map(states.map((s) => [s.id, s]));
      return {
        ...entryOf(row),
        page_id: row.page_id,
        fields: Object.fromEntries(FIELD_COLUMNS.map((c) => [c, row[c]])) as unknown as PageVersion['fields'],
        instances: list.map(([id, state]) => {
          const s = byId.get(state);
          if (!s) throw new Error(`Version ${number} of page ${pageId} names state ${state}, which is gone.`);
          return {
            id,
            state_id: state,
            parent_page_block_id: s.parent_page_block_id,
            block_id: s.block_id,
            revision_id: s.revision_id,
            version: { major: s.major, minor: s.minor },
            placeholder_values_json: compact && library ? compact(s.placeholder_values) : s.placeholder_values,
            bindings_json: s.bindings === null ? null : compact && library ? compact(s.bindings) : s.bindings,
            block:
              s.name === null
                ? null
                : {
                    name: s.name,
                    kind: s.kind as 'content' | 'layout',
                    block_type: s.block_type,
                  },
            update_status:
              s.name === null
                ? 'block_deleted'
                : updateStatusOf(
                    { major: s.major, minor: s.minor },
                    { major: Number(s.cur_major), minor: Number(s.cur_minor) },
                  ),
            revision_exists: s.revision_found !== null,
          };
        }),
      };
    },

    async revisions(ids) {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('block_revisions')
        .select(['id', 'template', 'css', 'js', 'schema_content'])
        .where('id', 'in', [...new Set(ids)])
        .execute();
      return new Map(rows.map((r) => [r.id, r]));
    },
  };
}
