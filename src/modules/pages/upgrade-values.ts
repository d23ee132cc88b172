/**
 * The values an instance would hold after an upgrade, and how they got there:
 * the one place that says it, for the upgrade plan and the upgrade everywhere
 * that applies it. Without value migrations on the way: the values kept, the
 * new revision's defaults where a field is left out (as `upgrade` fills
 * them), the values of removed fields dropped (what a major upgrade loses).
 * With them (`migration`: `migrateValues`' outcome over the chain of
 * revisions from the instance's to the target, run by `ValueMigrator`): the
 * values the migrations made, each value they moved in `migrated`, what they
 * could not make in `problems`; a removed field they did not carry is lost.
 */
import { isObject } from '../../shared/is-object.js';
import type { FieldError } from '../../shared/errors.js';
import { removedFields, type FieldDefinition } from '../blocks/schema/index.js';
import type { MigrationOutcome } from '../blocks/migrations/index.js';

export interface UpgradeValuesInput {
  /** The fields of the revision the instance stands on. */
  from: FieldDefinition[];
  /** The fields of the revision it would go to. */
  to: FieldDefinition[];
  /** Its values as stored. */
  values: Record<string, unknown>;
  /**
   * The chain's migrations run over `values`, when the revisions on the way
   * carry any; `migratable`: they carry or drop every field the chain removes.
   */
  migration?: { outcome: MigrationOutcome; migratable: boolean } | undefined;
}

export interface AddedField {
  field: string;
  /** The value it takes: its default; null when it has none (the field stays empty). */
  value: unknown;
  from_default: boolean;
}

export interface LostValue {
  /** Where the value stands now: `subtitle`, `cta.label`, `items[2].caption`. */
  path: string;
  value: unknown;
}

export interface MigratedValue {
  path: string;
  before: unknown;
  after: unknown;
}

export interface UpgradedValues {
  /** What the instance would hold on the new revision. */
  values: Record<string, unknown>;
  /** Top-level fields the new revision adds, with the value each takes. */
  added: AddedField[];
  /** The fields it removes or renames (their old names, `[]` for list items), as `removed_fields` says them. */
  removed_fields: string[];
  /** The values of those fields this instance holds: lost by the upgrade. */
  lost: LostValue[];
  /** Values the migrations moved, set, converted, dropped or made, at their paths after the step. */
  migrated: MigratedValue[];
  /** Whether migrations take the instance across (its chain carries steps, and every removed field). */
  migration: boolean;
  /** Values the migrations could not make, at their paths under `placeholder_values`. */
  problems: FieldError[];
}

/** The values after an upgrade from `from` to `to` (see the module's comment). */
export function valuesAfterUpgrade({ from, to, values, migration }: UpgradeValuesInput): UpgradedValues {
  const removed = removedBetween(from, to);
  const start = migration ? migration.outcome.values : values;
  // A copy to change: top-level changes need only a shallow one (10,000 deep copies were most of a plan).
  const after: Record<string, unknown> = removed.some((f) => /[.[]/.test(f)) ? structuredClone(start) : { ...start };
  const lost: LostValue[] = [];
  for (const field of removed) lost.push(...takeAt(after, field.split('.'), ''));
  // New fields take their defaults, as `upgrade` fills them: only real ones (nothing is invented).
  const known = new Set(from.map((f) => f.name));
  const added: AddedField[] = [];
  for (const field of to) {
    if (field.type === 'binding') continue;
    const hasDefault = field.default !== undefined;
    if (hasDefault && !Object.hasOwn(after, field.name)) after[field.name] = structuredClone(field.default);
    if (!known.has(field.name))
      added.push({ field: field.name, value: after[field.name] ?? null, from_default: hasDefault });
  }
  const outcome = migration?.outcome;
  return {
    values: after,
    added,
    removed_fields: removed,
    lost,
    // null where there was no value before (a default set) or is none after (a drop).
    migrated: (outcome?.migrated ?? []).map((m) => ({
      path: m.path,
      before: m.before ?? null,
      after: m.after ?? null,
    })),
    migration: migration?.migratable === true,
    problems: (outcome?.problems ?? []).map((p) => ({
      path: `placeholder_values.${p.path}`,
      message: `${p.message} (migrations of ${p.version.major}.${p.version.minor}, step ${p.step})`,
      code: p.code,
    })),
  };
}

/** `removedFields` once per pair of revisions' fields (the arrays are each revision's own, shared by its instances). */
const removedMemo = new WeakMap<FieldDefinition[], WeakMap<FieldDefinition[], string[]>>();
function removedBetween(from: FieldDefinition[], to: FieldDefinition[]): string[] {
  let byTarget = removedMemo.get(from);
  if (!byTarget) removedMemo.set(from, (byTarget = new WeakMap()));
  let removed = byTarget.get(to);
  if (!removed) byTarget.set(to, (removed = removedFields(from, to)));
  return removed;
}

/**
 * Removes the values at a field path (`cta.label`, `items[].caption`) from
 * `values`, in place, and answers each one taken with its concrete path.
 */
function takeAt(values: unknown, steps: string[], prefix: string): LostValue[] {
  if (!isObject(values) || steps.length === 0) return [];
  const [step, ...rest] = steps;
  const name = step!.replace(/(\[\])+$/, '');
  const lists = (step!.length - name.length) / 2;
  if (!Object.hasOwn(values, name)) return [];
  const path = prefix ? `${prefix}.${name}` : name;
  if (lists === 0 && rest.length === 0) {
    const value = values[name];
    delete values[name];
    return [{ path, value }];
  }
  return intoLists(values[name], lists, rest, path);
}

/** Down `lists` levels of arrays, then on along `rest` in each item. */
function intoLists(value: unknown, lists: number, rest: string[], path: string): LostValue[] {
  if (lists === 0) return takeAt(value, rest, path);
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown, i): LostValue[] => {
    const at = `${path}[${i}]`;
    // `items[]` itself removed (its item definition gone): each item is lost.
    if (lists === 1 && rest.length === 0) return [{ path: at, value: item }];
    return intoLists(item, lists - 1, rest, at);
  });
}
