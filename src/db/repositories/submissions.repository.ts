import type { Kysely, Selectable } from 'kysely';
import { conflict } from '../../shared/errors.js';
import { blockNotFound } from '../../modules/blocks/blocks.js';
import type { SubmissionRow, SubmissionsRepository } from '../../modules/submissions/submissions.js';
import type { Database } from '../dialects/dialect.js';
import type { BlockSubmissionsTable, DB } from '../schema.js';
import { insertBlock } from './block-writes.js';
import { toRevision } from './block-rows.js';
import { countOf } from './rows.js';
import { readAll } from '../read-all.js';
import { isGone } from './references.js';

const notPending = (id: number) => conflict(`Submission ${id} is no longer pending: it was decided already.`);

/** A submission beside its block now, its author, and the versions kept and current. */
const rows = (db: Kysely<DB>) =>
  db
    .selectFrom('block_submissions as s')
    .innerJoin('blocks as b', 'b.id', 's.block_id')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('block_revisions as kept', 'kept.id', 's.revision_id')
    .leftJoin('block_revisions as cur', 'cur.id', 'b.current_revision_id')
    .select([
      's.id',
      's.block_id',
      's.user_id',
      's.status',
      's.reason',
      's.approved_block_id',
      's.created_at',
      's.decided_at',
      's.revision_id',
      's.block_name',
      's.block_description',
      's.block_docs',
      's.block_type',
      'u.email as author_email',
      'kept.major as kept_major',
      'kept.minor as kept_minor',
      'b.name',
      'b.description',
      'b.docs',
      'b.block_type as current_block_type',
      'b.kind',
      'b.current_revision_id',
      'cur.major as current_major',
      'cur.minor as current_minor',
    ]);

type Row = Awaited<ReturnType<ReturnType<typeof rows>['executeTakeFirstOrThrow']>>;

const version = (major: number | null, minor: number | null) =>
  major === null || minor === null ? null : { major, minor };

function toRow(r: Row): SubmissionRow {
  return {
    id: r.id,
    block_id: r.block_id,
    user_id: r.user_id,
    status: r.status,
    reason: r.reason,
    approved_block_id: r.approved_block_id,
    created_at: r.created_at,
    decided_at: r.decided_at,
    author_email: r.author_email,
    frozen:
      r.revision_id === null
        ? null
        : {
            revisionId: r.revision_id,
            fields: {
              name: r.block_name ?? r.name,
              description: r.block_description ?? '',
              docs: r.block_docs ?? '',
              block_type: r.block_type,
            },
          },
    version: version(r.kept_major, r.kept_minor),
    current: {
      fields: { name: r.name, description: r.description, docs: r.docs, block_type: r.current_block_type },
      kind: r.kind,
      revisionId: r.current_revision_id,
      version: version(r.current_major, r.current_minor),
    },
  };
}

type Kept = Pick<
  Selectable<BlockSubmissionsTable>,
  'block_id' | 'revision_id' | 'block_name' | 'block_description' | 'block_docs' | 'block_type'
>;

export function submissionsRepository({ db, dialect }: Database): SubmissionsRepository {
  const find = async (id: number) => {
    const row = await rows(db).where('s.id', '=', id).executeTakeFirst();
    return row && toRow(row);
  };
  const found = async (id: number) => (await find(id))!;
  return {
    async create({ blockId, userId, frozen, now }) {
      try {
        const { id } = await db
          .insertInto('block_submissions')
          .values({
            block_id: blockId,
            user_id: userId,
            status: 'pending',
            reason: null,
            approved_block_id: null,
            created_at: now,
            decided_at: null,
            revision_id: frozen.revisionId,
            block_name: frozen.fields.name,
            block_description: frozen.fields.description,
            block_docs: frozen.fields.docs,
            block_type: frozen.fields.block_type,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Deleted right after, the block took its submission with it.
        const row = await find(id);
        if (!row) throw blockNotFound(blockId);
        return row;
      } catch (error) {
        // The partial unique index admits one pending submission per block.
        if (dialect.isUniqueViolation(error)) throw conflict(`Block ${blockId} already has a pending submission.`);
        // The block deleted since the service read it: the foreign key refuses the submission.
        if (dialect.isForeignKeyViolation(error) && (await isGone(db, 'blocks', blockId))) throw blockNotFound(blockId);
        throw error;
      }
    },
    find,
    async list(query) {
      let counted = db.selectFrom('block_submissions');
      let listed = rows(db);
      if (query.userId !== undefined) {
        counted = counted.where('user_id', '=', query.userId);
        listed = listed.where('s.user_id', '=', query.userId);
      }
      if (query.status) {
        counted = counted.where('status', '=', query.status);
        listed = listed.where('s.status', '=', query.status);
      }
      const [found, total] = await readAll(
        db,
        () => listed.orderBy('s.id', 'desc').limit(query.limit).offset(query.offset).execute(),
        () => counted.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst(),
      );
      return { rows: found.map(toRow), total: countOf(total) };
    },
    async revision(id) {
      const row = await db
        .selectFrom('block_revisions')
        .innerJoin('block_submissions', 'block_submissions.revision_id', 'block_revisions.id')
        .selectAll('block_revisions')
        .where('block_submissions.id', '=', id)
        .executeTakeFirst();
      return row && toRevision(row);
    },
    async withdraw(id) {
      const result = await db
        .deleteFrom('block_submissions')
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async approve({ id, adminId, now }) {
      await db.transaction().execute(async (trx) => {
        // Claim the decision first: of two approvals racing, one updates the row, the other finds nothing pending.
        const claimed = await trx
          .updateTable('block_submissions')
          .set({ status: 'approved', decided_at: now })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .returning(['block_id', 'revision_id', 'block_name', 'block_description', 'block_docs', 'block_type'])
          .executeTakeFirst();
        if (!claimed) throw notPending(id);
        const copyId = await copyAsSubmitted(trx, dialect, id, claimed, adminId, now);
        await trx.updateTable('block_submissions').set({ approved_block_id: copyId }).where('id', '=', id).execute();
      });
      return found(id);
    },
    async reject({ id, reason, now }) {
      const row = await db
        .updateTable('block_submissions')
        .set({ status: 'rejected', reason, decided_at: now })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (!row) throw notPending(id);
      return found(id);
    },
  };
}

/**
 * The global copy of what was submitted: the kept revision, never the block's
 * current one, and the kept texts and type. Tags are the block's (an
 * administrator's vocabulary, not the author's content).
 */
async function copyAsSubmitted(
  trx: Kysely<DB>,
  dialect: Database['dialect'],
  id: number,
  kept: Kept,
  adminId: number,
  now: string,
): Promise<number> {
  // Every pending submission keeps its revision (migration 0015 gave the older ones theirs).
  if (kept.revision_id === null) throw conflict(`Submission ${id} kept no revision: ask the author to submit again.`);
  const revisionRow = await trx
    .selectFrom('block_revisions')
    .selectAll()
    .where('id', '=', kept.revision_id)
    .executeTakeFirstOrThrow();
  const [block, sources, tags] = await readAll(
    trx,
    () => trx.selectFrom('blocks').select(['kind', 'name']).where('id', '=', kept.block_id).executeTakeFirstOrThrow(),
    () =>
      trx.selectFrom('block_revision_sources').select('source_id').where('revision_id', '=', revisionRow.id).execute(),
    () => trx.selectFrom('block_tags').select('tag_id').where('block_id', '=', kept.block_id).execute(),
  );
  const revision = toRevision(revisionRow);
  return insertBlock(trx, dialect, {
    ownerId: adminId,
    scope: 'global',
    kind: block.kind,
    fields: {
      name: kept.block_name ?? block.name,
      description: kept.block_description ?? '',
      docs: kept.block_docs ?? '',
      block_type: kept.block_type,
    },
    tags: tags.map((t) => t.tag_id),
    revision: {
      version: { major: 1, minor: 0 },
      template: revision.template,
      css: revision.css,
      js: revision.js,
      schema_content: revision.schema_content,
      changelog: `Approved from block ${kept.block_id} at ${revision.version.major}.${revision.version.minor}.`,
      sources: sources.map((s) => s.source_id),
    },
    now,
  });
}
