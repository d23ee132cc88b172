import { CompiledQuery } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import type { JobQueue } from '../../modules/jobs/jobs.js';
import type { Clock } from '../../shared/clock.js';
import type { Database } from '../dialects/dialect.js';

/**
 * How long a job may run on PostgreSQL before pg-boss takes it for lost (its
 * instance died) and tries it again. A publication's provider call is bounded
 * far below.
 */
const EXPIRE_SECONDS = 300;

/**
 * The job queue of the configured database: its own table on SQLite, pg-boss
 * on PostgreSQL (loaded only there), in a schema named after the service's:
 * `<schema>_jobs`, or `pageblocks_jobs` beside the default one.
 */
export async function openJobQueue(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'jobs'>,
  database: Database,
  clock: Clock,
  logger: Logger,
): Promise<JobQueue> {
  const onFailure = (job: { id: string; name: string; attempt: number }, error: unknown) =>
    logger.warn({ job, err: error }, 'a job failed; it is tried again until its last try');
  if (!config.databaseUrl) {
    const { TableQueue } = await import('./table-queue.js');
    return new TableQueue(database.db, config.jobs, clock, onFailure);
  }
  const { PgBossQueue } = await import('./pg-boss-queue.js');
  return new PgBossQueue(
    {
      url: config.databaseUrl,
      schema: jobSchema(config.databaseSchema),
      expireSeconds: EXPIRE_SECONDS,
      executeSql: (text, values) => database.db.executeQuery(CompiledQuery.raw(text, values)),
    },
    config.jobs,
    (error) => logger.error({ err: error }, 'the job queue failed'),
    onFailure,
  );
}

export const jobSchema = (schema: string | undefined) => (schema ? `${schema}_jobs` : 'pageblocks_jobs');
