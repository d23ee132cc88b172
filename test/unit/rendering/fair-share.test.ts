/**
 * Who renders next: users served in turn from queues of their own, the last
 * free thread kept for a user with nothing running, previews past a user's
 * share refused with a time to retry, publications never refused.
 */
import { describe, expect, it } from 'vitest';
import { FairShare, type Release } from '../../../src/rendering/fair-share.js';
import { AppError } from '../../../src/shared/errors.js';

const A = (purpose: 'preview' | 'publication' = 'preview') => ({ userId: 1, purpose });
const B = (purpose: 'preview' | 'publication' = 'preview') => ({ userId: 2, purpose });
const C = (purpose: 'preview' | 'publication' = 'preview') => ({ userId: 3, purpose });

/** Acquires and records the order in which places are granted. */
function recorder(share: FairShare) {
  const granted: string[] = [];
  const releases = new Map<string, Release>();
  const ask = (name: string, renderFor: Parameters<FairShare['acquire']>[0]) =>
    share.acquire(renderFor).then((release) => {
      granted.push(name);
      releases.set(name, release);
    });
  const release = async (name: string) => {
    releases.get(name)!();
    await Promise.resolve();
    await Promise.resolve();
  };
  return { granted, ask, release };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairShare', () => {
  it('never gives one user the last free thread while they render already', async () => {
    const share = new FairShare({ slots: 2, waitingPerUser: 10 });
    const { granted, ask, release } = recorder(share);
    void ask('a1', A());
    void ask('a2', A());
    void ask('a3', A());
    await settle();
    expect(granted).toEqual(['a1']);
    // B finds the thread A may not take.
    void ask('b1', B());
    await settle();
    expect(granted).toEqual(['a1', 'b1']);
    expect(share.load).toEqual({ running: 2, waiting: 2 });
    await release('a1');
    await settle();
    expect(granted).toEqual(['a1', 'b1', 'a2']);
  });

  it('serves users in turn, whatever order their pages came in', async () => {
    const share = new FairShare({ slots: 2, waitingPerUser: 10 });
    const { granted, ask, release } = recorder(share);
    void ask('c0', C());
    void ask('a1', A());
    for (const name of ['a2', 'a3', 'a4']) void ask(name, A());
    void ask('b1', B());
    void ask('b2', B());
    await settle();
    expect(granted).toEqual(['c0', 'a1']);
    // Each time the oldest running page ends: B, queued behind three of A's, is served next, and in turn after.
    for (const done of ['c0', 'a1', 'b1', 'a2', 'b2', 'a3']) {
      await release(done);
      await settle();
    }
    expect(granted).toEqual(['c0', 'a1', 'b1', 'a2', 'b2', 'a3', 'a4']);
  });

  it('refuses a preview past its user’s share, with the seconds to wait, and never a publication', async () => {
    const share = new FairShare({ slots: 2, waitingPerUser: 2 });
    const { granted, ask } = recorder(share);
    void ask('a1', A());
    void ask('a2', A());
    void ask('a3', A());
    let refused: unknown;
    try {
      await share.acquire(A());
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).kind).toBe('rate_limited');
    expect((refused as AppError).details?.retry_after).toBeGreaterThanOrEqual(1);
    expect((refused as AppError).message).toMatch(/share of the renderer/);
    // Another user is not refused, nor is A's publication; the publication goes first in A's queue.
    void ask('b1', B());
    void ask('a-pub', A('publication'));
    await settle();
    expect(granted).toEqual(['a1', 'b1']);
    expect(share.load).toEqual({ running: 2, waiting: 3 });
  });

  it('lets a user take every thread when there is one thread', async () => {
    const share = new FairShare({ slots: 1, waitingPerUser: 1 });
    const { granted, ask, release } = recorder(share);
    void ask('a1', A());
    void ask('b1', B());
    void ask('a2', A());
    await settle();
    expect(granted).toEqual(['a1']);
    await release('a1');
    await settle();
    expect(granted).toEqual(['a1', 'b1']);
    await release('b1');
    await settle();
    expect(granted).toEqual(['a1', 'b1', 'a2']);
  });

  it('treats renders for nobody as users of their own, never refused', async () => {
    const share = new FairShare({ slots: 2, waitingPerUser: 0 });
    const { granted, ask } = recorder(share);
    void ask('x', undefined);
    void ask('y', undefined);
    void ask('z', undefined);
    await settle();
    expect(granted).toEqual(['x', 'y']);
  });

  it('gives back the place of a render whose requester went away while it waited, which never runs', async () => {
    const share = new FairShare({ slots: 2, waitingPerUser: 2 });
    const { granted, ask, release } = recorder(share);
    void ask('a1', A());
    const gone = [new AbortController(), new AbortController()];
    const left = gone.map((c, i) => ask(`a${i + 2}`, { ...A(), signal: c.signal }).catch((e: AppError) => e.kind));
    await settle();
    expect(share.load).toEqual({ running: 1, waiting: 2 });
    // A third preview waiting would be past the share.
    expect(() => share.acquire(A())).toThrow(AppError);
    for (const c of gone) c.abort();
    expect(await Promise.all(left)).toEqual(['conflict', 'conflict']);
    expect(share.load).toEqual({ running: 1, waiting: 0 });
    // Their places are free again, and theirs never run.
    void ask('a4', A());
    void ask('a5', A());
    await release('a1');
    await settle();
    expect(granted).toEqual(['a1', 'a4']);
    // Aborted before it asks: refused at once, never queued.
    const early = new AbortController();
    early.abort();
    await expect(share.acquire({ ...B(), signal: early.signal })).rejects.toMatchObject({ kind: 'conflict' });
    expect(share.load.waiting).toBe(1);
  });
});
