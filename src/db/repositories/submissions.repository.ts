import { conflict } from '../../shared/errors.js';
import type { SubmissionsRepository } from '../../modules/submissions/submissions.js';
import type { Database } from '../dialects/dialect.js';
import { insertBlock } from './block-writes.js';
import { toRevision } from './block-rows.js';
import { countOf } from './rows.js';
import { readAll } from '../read-all.js';

const COLUMNS = ['id', 'block_id', 'status', 'reason', 'approved_block_id', 'created_at', 'decided_at'] as const;
const notPending = (id: number) => conflict(`Submission ${id} is no longer pending: it was decided already.`);

export function submissionsRepository({ db, dialect }: Database): SubmissionsRepository {
  return {
    async create(input) {
      try {
        return await db
          .insertInto('block_submissions')
          .values({
            block_id: input.blockId,
            user_id: input.userId,
            status: 'pending',
            reason: null,
            approved_block_id: null,
            created_at: input.now,
            decided_at: null,
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
      } catch (error) {
        // The partial unique index admits one pending submission per block.
        if (dialect.isUniqueViolation(error))
          throw conflict(`Block ${input.blockId} already has a pending submission.`);
        throw error;
      }
    },
    async find(id) {
      return db
        .selectFrom('block_submissions')
        .select([...COLUMNS, 'user_id'])
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async list(query) {
      let base = db.selectFrom('block_submissions');
      if (query.userId !== undefined) base = base.where('user_id', '=', query.userId);
      if (query.status) base = base.where('status', '=', query.status);
      const [rows, total] = await readAll(
        db,
        () => base.select(COLUMNS).orderBy('id', 'desc').limit(query.limit).offset(query.offset).execute(),
        () => base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst(),
      );
      return { rows, total: countOf(total) };
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
      return db.transaction().execute(async (trx) => {
        // Claim the decision first: of two approvals racing, one updates the row, the other finds nothing pending.
        const claimed = await trx
          .updateTable('block_submissions')
          .set({ status: 'approved', decided_at: now })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .returning('block_id')
          .executeTakeFirst();
        if (!claimed) throw notPending(id);
        const block = await trx
          .selectFrom('blocks')
          .selectAll()
          .where('id', '=', claimed.block_id)
          .executeTakeFirstOrThrow();
        const revisionRow = await trx
          .selectFrom('block_revisions')
          .selectAll()
          .where('id', '=', block.current_revision_id!)
          .executeTakeFirstOrThrow();
        const sources = await trx
          .selectFrom('block_revision_sources')
          .select('source_id')
          .where('revision_id', '=', revisionRow.id)
          .execute();
        const tags = await trx.selectFrom('block_tags').select('tag_id').where('block_id', '=', block.id).execute();
        const revision = toRevision(revisionRow);
        const copyId = await insertBlock(trx, dialect, {
          ownerId: adminId,
          scope: 'global',
          kind: block.kind,
          fields: { name: block.name, description: block.description, docs: block.docs, block_type: block.block_type },
          tags: tags.map((t) => t.tag_id),
          revision: {
            version: { major: 1, minor: 0 },
            template: revision.template,
            css: revision.css,
            js: revision.js,
            schema_content: revision.schema_content,
            changelog: `Approved from block ${block.id} at ${revision.version.major}.${revision.version.minor}.`,
            sources: sources.map((s) => s.source_id),
          },
          now,
        });
        return trx
          .updateTable('block_submissions')
          .set({ approved_block_id: copyId })
          .where('id', '=', id)
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
      });
    },
    async reject({ id, reason, now }) {
      const row = await db
        .updateTable('block_submissions')
        .set({ status: 'rejected', reason, decided_at: now })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .returning(COLUMNS)
        .executeTakeFirst();
      if (!row) throw notPending(id);
      return row;
    },
  };
}
