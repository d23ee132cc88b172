import type { Kysely } from 'kysely';
import type { DB } from '../../schema.js';
import { bool } from '../rows.js';
import type { VersionList } from './version-summary.js';

/**
 * Keeps at most `limit` versions of the page, taking out the oldest that were
 * never published (a published version always stays, even past the limit),
 * and the states that no kept version names any more.
 *
 * A state is named by consecutive versions only: from the version that wrote
 * it until its instance changes again or leaves the page (an instance that
 * comes back, by a restore, is a new instance). So a state of a version taken
 * out is still named by a kept version exactly when the nearest kept version
 * before it or after it names it: only those lists are read.
 */
export async function pruneVersions(trx: Kysely<DB>, pageId: number, limit: number): Promise<void> {
  const all = await trx
    .selectFrom('page_versions')
    .select(['number', 'published'])
    .where('page_id', '=', pageId)
    .orderBy('number')
    .execute();
  let excess = all.length - limit;
  if (excess <= 0) return;
  const out = new Set<number>();
  for (const v of all) {
    if (excess === 0) break;
    if (bool(v.published)) continue;
    out.add(v.number);
    excess--;
  }
  if (out.size === 0) return;
  const numbers = all.map((v) => v.number);
  const neighbours = new Set<number>();
  for (const n of out) {
    const at = numbers.indexOf(n);
    const below = numbers
      .slice(0, at)
      .reverse()
      .find((m) => !out.has(m));
    const above = numbers.slice(at + 1).find((m) => !out.has(m));
    if (below !== undefined) neighbours.add(below);
    if (above !== undefined) neighbours.add(above);
  }
  const lists = await trx
    .selectFrom('page_versions')
    .select(['number', 'blocks'])
    .where('page_id', '=', pageId)
    .where('number', 'in', [...out, ...neighbours])
    .execute();
  const named = new Set<number>();
  const candidates = new Set<number>();
  for (const { number, blocks } of lists) {
    const states = (JSON.parse(blocks) as VersionList).map(([, state]) => state);
    for (const state of states) (out.has(number) ? candidates : named).add(state);
  }
  const garbage = [...candidates].filter((state) => !named.has(state));
  await trx
    .deleteFrom('page_versions')
    .where('page_id', '=', pageId)
    .where('number', 'in', [...out])
    .execute();
  for (let i = 0; i < garbage.length; i += 500) {
    await trx
      .deleteFrom('page_block_states')
      .where('page_id', '=', pageId)
      .where('id', 'in', garbage.slice(i, i + 500))
      .execute();
  }
}
