/**
 * What a major block update means for the values of the fields it removes
 * (`migration_impact` of `PUT /blocks/{id}` and its dry run): how many of the
 * caller's instances hold a value in each removed field, and, with the
 * update's value migrations applied, how many instances they would take to
 * the new version and how many `migrate` would still refuse, and why. The
 * block editor asks "heading is now title?" with these figures before saving.
 *
 * Counted from the upgrade plan's entries (`UpgradePlanService.planned`), so
 * it says exactly what the plan and `migrate` would: in a dry run the new
 * revision and its migrations stand in the transaction that is rolled back.
 */
import type { Actor } from '../../shared/actor.js';
import type { ErrorCode } from '../../shared/errors.js';
import { parsePath, readAll } from '../blocks/migrations/value-paths.js';
import type { Version } from '../blocks/blocks.js';
import type { PlannedEntry, PlanRow } from './upgrade-plan.js';

/** Port: the plan's entries without HTML (`UpgradePlanService.planned`). */
export interface PlannedEntries {
  planned(
    actor: Actor,
    blockId: number,
    to: Version | undefined,
  ): Promise<{ planned: { rows: PlanRow[]; entries: PlannedEntry[] } }>;
}

export interface MigrationImpact {
  /** For each removed field (as `removed_fields` names it), how many of the caller's instances hold a value there. */
  holding: Array<{ field: string; instances: number }>;
  /** Instances behind whose revisions on the way carry or drop every removed field: what `migrate` takes. */
  migratable: number;
  /** Of those, how many `migrate` would refuse: a value a step cannot make, or values that would not validate. */
  blocked: number;
  /** Why, by field and code, the most instances first, with one instance's message. */
  reasons: Array<{ field: string; code: ErrorCode | 'invalid'; instances: number; message: string }>;
}

/** `placeholder_values.items[3].caption` → `items[].caption`. */
const fieldOf = (path: string) => path.replace(/^placeholder_values\.?/, '').replace(/\[\d+\]/g, '[]') || 'root';

/** A value someone would miss: not absent, null or empty text. */
const held = (value: unknown) => value !== undefined && value !== null && value !== '';

export class MigrationImpactService {
  constructor(private readonly deps: { plans: PlannedEntries }) {}

  /** Null when the update removes no field: nothing to carry. */
  async of(actor: Actor, blockId: number, removed: readonly string[]): Promise<MigrationImpact | null> {
    if (removed.length === 0) return null;
    const { rows, entries } = (await this.deps.plans.planned(actor, blockId, undefined)).planned;
    const holding = removed.map((field) => {
      const tokens = parsePath(field);
      const instances = tokens
        ? rows.filter((row) => readAll(row.placeholder_values.value, tokens).some((found) => held(found.value))).length
        : 0;
      return { field, instances };
    });
    const carried = entries.filter((e) => e.migration);
    const blocked = carried.filter((e) => e.status === 'blocked');
    const groups = new Map<string, MigrationImpact['reasons'][number] & { ids: Set<number> }>();
    for (const entry of blocked)
      for (const problem of [...entry.invalid_values, ...entry.invalid_bindings]) {
        const field = fieldOf(problem.path);
        const key = `${field}\u0000${problem.code}`;
        let group = groups.get(key);
        if (!group)
          groups.set(
            key,
            (group = { field, code: problem.code, instances: 0, message: problem.message, ids: new Set() }),
          );
        group.ids.add(entry.id);
      }
    return {
      holding,
      migratable: carried.length,
      blocked: blocked.length,
      reasons: [...groups.values()]
        .map(({ ids, ...reason }) => ({ ...reason, instances: ids.size }))
        .sort((a, b) => b.instances - a.instances || a.field.localeCompare(b.field)),
    };
  }
}
