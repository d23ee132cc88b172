import { appendFileSync } from 'node:fs';
import { expect } from 'vitest';
import { checkIntegrity } from '../../src/db/integrity.js';
import type { TestApp } from './app.js';
import type { Reply } from './client.js';

/** Rounds per race. */
export const ROUNDS = 12;
/** Rounds run this many at once: more contention, less wall time. */
const AT_ONCE = 4;

/** `work` after `lag` ms and 0-3 ms of jitter. */
export const after = <T>(work: () => Promise<T>, lag = 0) =>
  new Promise((resolve) => setTimeout(resolve, lag + Math.random() * 3)).then(work);

/** What an answer says, as compared: its status and the paths of its errors. */
const shape = (r: Reply) => ({
  status: r.status,
  paths: ((r.body?.errors ?? []) as Array<{ path: string }>).map((e) => e.path),
});

export interface Pair<C> {
  /** Fresh objects for one round. */
  setup: () => Promise<C>;
  remove: (c: C) => Promise<Reply>;
  write: (c: C) => Promise<Reply>;
  /** The write's statuses when it wins. */
  wins: number[];
  /** The delete's statuses (a 409 when the write won and now holds the object). */
  removals: number[];
}

/**
 * A delete racing a write that references the deleted object. The write once
 * after the delete, with nothing racing: what the write must answer whenever
 * it loses. Then ROUNDS races, whose losing writes must answer exactly that,
 * and the stored data must hold every reference afterwards.
 */
export async function race<C>(t: TestApp, pair: Pair<C>) {
  const first = await pair.setup();
  expect(pair.removals).toContain((await pair.remove(first)).status);
  const gone = shape(await pair.write(first));
  expect(gone.status, 'the write on a deleted object').toBeGreaterThanOrEqual(400);
  expect(gone.status).toBeLessThan(500);

  const outcomes = { won: 0, lost: 0 };
  for (let done = 0; done < ROUNDS; done += AT_ONCE) {
    const contexts = await Promise.all(Array.from({ length: AT_ONCE }, () => pair.setup()));
    const replies = await Promise.all(
      // The delete lags the write by 0, 4, 8, 12 ms: a write spends about that long between its checks and its row.
      contexts.map((c, i) => Promise.all([after(() => pair.remove(c), 4 * i), after(() => pair.write(c))])),
    );
    for (const [removed, written] of replies) {
      expect(pair.removals, removed.text).toContain(removed.status);
      if (pair.wins.includes(written.status)) outcomes.won++;
      else {
        expect(shape(written), written.text).toEqual(gone);
        outcomes.lost++;
      }
    }
  }
  // RACE_LOG=<file>: each pair's counts, to see that both sides win some rounds.
  if (process.env.RACE_LOG) appendFileSync(process.env.RACE_LOG, `${JSON.stringify(outcomes)}\n`);
  expect(outcomes.won + outcomes.lost).toBe(ROUNDS);
  expect(await checkIntegrity(t.app.database.db)).toEqual([]);
}
