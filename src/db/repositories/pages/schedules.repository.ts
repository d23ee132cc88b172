import { notFound } from '../../../shared/errors.js';
import type { PublishInput, ScheduleRepository } from '../../../modules/publishing/publishing.js';
import type { Database } from '../../dialects/dialect.js';

export function schedulesRepository({ db, dialect }: Database): ScheduleRepository {
  return {
    async get(pageId) {
      const row = await db.selectFrom('page_schedules').selectAll().where('page_id', '=', pageId).executeTakeFirst();
      if (!row) return undefined;
      return {
        pageId: row.page_id,
        userId: row.user_id,
        publishAt: row.publish_at,
        input: JSON.parse(row.input) as PublishInput,
        jobId: row.job_id,
        attempts: Number(row.attempts),
        lastError: row.last_error,
        lastRun:
          row.outcome && row.ran_at
            ? { outcome: row.outcome, at: row.ran_at, attempts: Number(row.attempts), error: row.last_error }
            : null,
      };
    },

    async put({ pageId, userId, publishAt, input, jobId, now }) {
      const values = {
        user_id: userId,
        publish_at: publishAt,
        input: JSON.stringify(input),
        job_id: jobId,
        outcome: null,
        attempts: 0,
        last_error: null,
        ran_at: null,
        created_at: now,
      };
      try {
        await db
          .insertInto('page_schedules')
          .values({ page_id: pageId, ...values })
          .onConflict((oc) => oc.column('page_id').doUpdateSet(values))
          .execute();
      } catch (error) {
        // The page was deleted since it was checked: as if it had gone before (and its job goes with the transaction).
        if (dialect.isForeignKeyViolation(error)) throw notFound(`Page ${pageId} not found.`);
        throw error;
      }
    },

    async clear(pageId, jobId) {
      await db
        .updateTable('page_schedules')
        .set({ job_id: null })
        .where('page_id', '=', pageId)
        .where('job_id', '=', jobId)
        .execute();
    },

    async recordTry(pageId, jobId, attempts, error) {
      await db
        .updateTable('page_schedules')
        .set({ attempts, last_error: error })
        .where('page_id', '=', pageId)
        .where('job_id', '=', jobId)
        .execute();
    },

    async recordRun(pageId, jobId, run) {
      await db
        .updateTable('page_schedules')
        .set({ job_id: null, outcome: run.outcome, attempts: run.attempts, last_error: run.error, ran_at: run.at })
        .where('page_id', '=', pageId)
        .where('job_id', '=', jobId)
        .execute();
    },
  };
}
