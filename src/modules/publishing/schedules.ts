import type { PublishInput } from './publishing.service.js';

/** The outcome of a page's last scheduled publication, as its status shows it. */
export interface ScheduledRun {
  outcome: 'published' | 'failed';
  /** When it ended. */
  at: string;
  /** Tries it took (1 when the first went through or failed for good). */
  attempts: number;
  /** The provider's message (or why it could not be sent) when it failed; null when published. */
  error: string | null;
}

export interface PageSchedule {
  pageId: number;
  userId: number;
  publishAt: string;
  input: PublishInput;
  /** The job that will publish; null when nothing is pending. */
  jobId: string | null;
  lastRun: ScheduledRun | null;
  /** Tries so far of the pending job, with the last one's message. */
  attempts: number;
  lastError: string | null;
}

export interface ScheduleRepository {
  get(pageId: number): Promise<PageSchedule | undefined>;
  /** Pending from now: the job named, the run before forgotten. */
  put(schedule: {
    pageId: number;
    userId: number;
    publishAt: string;
    input: PublishInput;
    jobId: string;
    now: string;
  }): Promise<void>;
  /** Nothing pending any more (the last run's outcome stays). */
  clear(pageId: number, jobId: string): Promise<void>;
  /** A try of `jobId` that failed and will be tried again. */
  recordTry(pageId: number, jobId: string, attempts: number, error: string): Promise<void>;
  /** The run of `jobId` ended: nothing pending, its outcome kept. */
  recordRun(pageId: number, jobId: string, run: ScheduledRun): Promise<void>;
}
