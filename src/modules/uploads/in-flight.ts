import { rateLimited } from '../../shared/errors.js';

/** What `Retry-After` says past the limit: an upload of a few MB takes about this long. */
export const IN_FLIGHT_RETRY_SECONDS = 5;

/**
 * How many uploads each user has being received by this process. One user's
 * uploads cannot take every socket, disk write and turn of the loop of an
 * instance: past `limit` the next one is refused at once (429), before its
 * body is read.
 */
export class UploadsInFlight {
  private readonly counts = new Map<number, number>();

  constructor(private readonly limit: number) {}

  async run<T>(userId: number, work: () => Promise<T>): Promise<T> {
    const count = this.counts.get(userId) ?? 0;
    if (count >= this.limit) {
      throw rateLimited(
        `You have ${count} uploads in progress, the most at once: send this one when one of them has finished.`,
        IN_FLIGHT_RETRY_SECONDS,
      );
    }
    this.counts.set(userId, count + 1);
    try {
      return await work();
    } finally {
      const left = (this.counts.get(userId) ?? 1) - 1;
      if (left > 0) this.counts.set(userId, left);
      else this.counts.delete(userId);
    }
  }
}
