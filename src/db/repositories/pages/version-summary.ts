/** A version's instances in order: `[instance id, state id]` each. */
export type VersionList = Array<[number, number]>;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The length of the longest increasing run (not contiguous) of `xs`: what stayed in order. */
function inOrder(xs: number[]): number {
  const tails: number[] = [];
  for (const x of xs) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = x;
  }
  return tails.length;
}

/**
 * One line saying what a version changed from the one before it, such as
 * "2 blocks changed, 1 added": instances changed (values, bindings, pin or
 * parent), added, removed, moved (the fewest that, taken out and put back,
 * give the new order), and the metadata.
 */
export function summarize(previous: VersionList | undefined, next: VersionList, metaChanged: boolean): string {
  if (!previous) return next.length ? `page created with ${plural(next.length, 'block')}` : 'page created';
  const before = new Map(previous.map(([id, state], place) => [id, { state, place }]));
  const after = new Set(next.map(([id]) => id));
  let changed = 0;
  let added = 0;
  const kept: number[] = [];
  for (const [id, state] of next) {
    const old = before.get(id);
    if (!old) added++;
    else {
      if (old.state !== state) changed++;
      kept.push(old.place);
    }
  }
  const removed = previous.filter(([id]) => !after.has(id)).length;
  const moved = kept.length - inOrder(kept);
  const counts = (
    [
      [changed, 'changed'],
      [added, 'added'],
      [removed, 'removed'],
      [moved, 'moved'],
    ] as const
  ).filter(([n]) => n > 0);
  const parts = counts.map(([n, verb], i) => (i === 0 ? `${plural(n, 'block')} ${verb}` : `${n} ${verb}`));
  if (metaChanged) parts.push('metadata changed');
  return parts.length ? parts.join(', ') : 'no change';
}
