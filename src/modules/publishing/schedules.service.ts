import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, conflict, fieldError } from '../../shared/errors.js';
import type { Job, JobQueue } from '../jobs/jobs.js';
import { pageEvent } from '../webhooks/events.js';
import { NO_OUTBOX, type Outbox } from '../webhooks/webhooks.js';
import type { PublicationStatus, PublishInput, ScheduleRepository } from './publishing.js';
import type { PublishingService } from './publishing.service.js';

/** The job that publishes a page at its time: `{ pageId }`. */
export const PUBLISH_JOB = 'page.publish';

export interface ScheduleInput extends PublishInput {
  /** ISO 8601 date-time, in the future. */
  publish_at: string;
}

/**
 * A page's publication at a time: checked now as publish would check it,
 * stored with the job that will run it, run once by the job queue (on one
 * instance, after restarts), a provider's 5xx or time-out tried again with
 * the queue's backoff, a refusal (4xx) not. A newer schedule replaces the
 * older one; a job that is no longer the page's pending one does nothing.
 */
export class SchedulesService {
  constructor(
    private readonly deps: {
      schedules: ScheduleRepository;
      publishing: PublishingService;
      jobs: Pick<JobQueue, 'send' | 'cancel'>;
      /** The actor a scheduled publication runs as: its author, unless they can no longer act. */
      actorOf: (userId: number) => Promise<Actor | undefined>;
      /** Tries of a job after the first (the queue's retry limit): past them, a failure is final. */
      retryLimit: number;
      clock: Clock;
      /** page.scheduled with the schedule, publication.failed with a run's final failure. */
      outbox?: Outbox;
    },
  ) {}

  private get outbox(): Outbox {
    return this.deps.outbox ?? NO_OUTBOX;
  }

  async schedule(actor: Actor, pageId: number, input: ScheduleInput): Promise<PublicationStatus> {
    const { publish_at, ...body } = input;
    const at = new Date(publish_at);
    if (!(at.getTime() > this.deps.clock.now().getTime()))
      throw fieldError('publish_at', `publish_at is not in the future: ${publish_at}.`, {
        code: 'too_small',
        expected: `a date-time after ${this.deps.clock.now().toISOString()}`,
      });
    // Checked as the publication would be now (a published page gets a publish-update).
    const { mode, page } = await this.deps.publishing.checkedPage(actor, pageId, body);
    const previous = await this.deps.schedules.get(pageId);
    // The job, the schedule that names it and the event are stored together (a job without its schedule does nothing).
    await this.outbox.within(
      async () => {
        const jobId = await this.deps.jobs.send(PUBLISH_JOB, { pageId }, { runAt: at });
        await this.deps.schedules.put({
          pageId,
          userId: actor.userId,
          publishAt: at.toISOString(),
          input: body,
          jobId,
          now: this.deps.clock.now().toISOString(),
        });
      },
      () => [pageEvent('page.scheduled', page, { publish_at: at.toISOString(), mode })],
    );
    if (previous?.jobId) await this.deps.jobs.cancel(PUBLISH_JOB, previous.jobId);
    return this.deps.publishing.status(actor, pageId);
  }

  async unschedule(actor: Actor, pageId: number): Promise<void> {
    // The page is the actor's (404/403 otherwise) before anything is said of its schedule.
    await this.deps.publishing.status(actor, pageId);
    const schedule = await this.deps.schedules.get(pageId);
    if (!schedule?.jobId) throw conflict(`Page ${pageId} has no scheduled publication to cancel.`);
    await this.deps.schedules.clear(pageId, schedule.jobId);
    await this.deps.jobs.cancel(PUBLISH_JOB, schedule.jobId);
  }

  /** The job's work. Throws only to be tried again. */
  async run(job: Job): Promise<void> {
    const pageId = Number(job.data.pageId);
    const schedule = await this.deps.schedules.get(pageId);
    if (!schedule || schedule.jobId !== job.id) return;
    const actor = await this.deps.actorOf(schedule.userId);
    const end = (outcome: 'published' | 'failed', error: string | null) =>
      this.outbox.within(
        () =>
          this.deps.schedules.recordRun(pageId, job.id, {
            outcome,
            at: this.deps.clock.now().toISOString(),
            attempts: job.attempt,
            error,
          }),
        // The page as read in the run's transaction: a run that never got to read it (its author blocked) is told too.
        () =>
          outcome === 'failed'
            ? [{ pageId, type: 'publication.failed', data: { error, scheduled: true, attempts: job.attempt } }]
            : [],
      );
    if (!actor) return end('failed', 'The account that scheduled this publication can no longer publish.');
    try {
      const checked = await this.deps.publishing.checkedPage(actor, pageId, schedule.input);
      await (checked.mode === 'update'
        ? this.deps.publishing.publishUpdate(actor, pageId, schedule.input, true)
        : this.deps.publishing.publish(actor, pageId, schedule.input, true));
      await end('published', null);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const again = error instanceof AppError ? error.transient || error.kind === 'conflict' : true;
      if (again && job.attempt <= this.deps.retryLimit) {
        await this.deps.schedules.recordTry(pageId, job.id, job.attempt, message);
        throw error;
      }
      await end('failed', message);
    }
  }
}
