import type { Dialect } from './dialects/dialect.js';

const ATTEMPTS = 5;

/**
 * Runs `attempt` (one whole transaction) again when the database gave it up
 * for another transaction's sake: a deadlock or a serialization failure is a
 * reason to try again, never an answer to the client. Anything else, and the
 * last failure, is thrown as is.
 */
export async function retrying<T>(dialect: Dialect, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= ATTEMPTS || !dialect.isRetryable(error)) throw error;
      // Jittered and growing, so that the same two do not collide again at once.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** tries));
    }
  }
}
