/**
 * What a block's update means for the caller's pages (`upgrade_impact` of
 * `PUT /blocks/{id}` and its dry run): how many of their instances stand
 * behind the block's version, and how many of those would not validate on it,
 * by field and constraint ("max_length 60 → 10: 4 instances hold longer
 * text"). Each instance is checked as an upgrade would take it: its values,
 * with the new revision's defaults where a field is left out.
 */
import type { Actor } from '../../shared/actor.js';
import type { ErrorCode } from '../../shared/errors.js';
import type { StoredJson } from '../../shared/stored-json.js';
import type { BlockType, Revision, Version } from '../blocks/blocks.js';
import { valuesAfterUpgrade, type UpgradeValuesInput } from './upgrade-values.js';
import {
  compilePlaceholderSchema,
  ValidatorCache,
  type FieldDefinition,
  type ItemDefinition,
} from '../blocks/schema/index.js';

/** One instance of the block on one of the caller's pages, as stored. */
export interface ImpactRow {
  id: number;
  page_id: number;
  version: Version;
  placeholder_values: StoredJson<Record<string, unknown>>;
  /** The fields of the revision it is pinned to. */
  schema_snapshot: StoredJson<FieldDefinition[]>;
}

/** Port: the caller's instances of a block. */
export interface UpgradeImpactRows {
  instancesOf(blockId: number, userId: number): Promise<ImpactRow[]>;
}

/** Port: what the block's value migrations make of instances' values (`UpgradePlanService`). */
export interface ImpactMigrations {
  migrationsOf(
    actor: Actor,
    blockId: number,
    to: Version,
    instances: Array<{ version: Version; fields: () => FieldDefinition[]; values: Record<string, unknown> }>,
  ): Promise<(UpgradeValuesInput['migration'] | undefined)[]>;
}

export interface ImpactReason {
  /** The field, nested with dots and `[]` for list items: `title`, `cta.label`, `items[].caption`. */
  field: string;
  /** The constraint of the field definition that refuses the values: `max_length`, `required`, `options`, … */
  constraint: string;
  /** Its value in the revisions the instances stand on (null: none), and in the new one. */
  from: unknown;
  to: unknown;
  code: ErrorCode | 'invalid';
  /** How many instances it refuses. */
  instances: number;
  message: string;
}

export interface UpgradeImpact {
  /** The version the instances would be upgraded to: the block's, after the update. */
  to: Version;
  /** The caller's instances of the block, on all their pages. */
  instances: number;
  /** Of those, how many are not on `to`. */
  behind: number;
  /** Of those behind, how many a major step separates from `to` (upgrade refuses them: replace or migrate). */
  behind_major: number;
  /** Of those behind, how many would not validate on `to` (after the value migrations on the way). */
  would_not_validate: number;
  /** Of those behind by a major, how many the value migrations carry across with values that validate. */
  migratable: number;
  /** Why, by field and constraint, the most instances first. */
  reasons: ImpactReason[];
}

/** The constraint behind each error code, and what the refused instances hold, said for one and for several. */
const CONSTRAINTS: Partial<Record<ErrorCode, { key: string; one: string; many: string }>> = {
  too_long: { key: 'max_length', one: 'holds longer text', many: 'hold longer text' },
  too_short: { key: 'min_length', one: 'holds shorter text', many: 'hold shorter text' },
  too_large: { key: 'max', one: 'holds a larger number', many: 'hold larger numbers' },
  too_small: { key: 'min', one: 'holds a smaller number', many: 'hold smaller numbers' },
  too_many: { key: 'max_items', one: 'holds more items', many: 'hold more items' },
  too_few: { key: 'min_items', one: 'holds fewer items', many: 'hold fewer items' },
  pattern: { key: 'pattern', one: 'holds text that does not match', many: 'hold text that does not match' },
  enum: { key: 'options', one: 'holds a value no longer offered', many: 'hold values no longer offered' },
  required: { key: 'required', one: 'has no value and there is no default', many: 'have no value and no default' },
  type: { key: 'type', one: 'holds a value of another type', many: 'hold values of another type' },
  format: { key: 'type', one: 'holds a value of another format', many: 'hold values of another format' },
};

/** `items[3].caption` → `items[].caption`; the path's steps into the field definitions. */
const fieldOf = (path: string) => path.replace(/\[\d+\]/g, '[]');

function definitionAt(fields: FieldDefinition[] | undefined, field: string): ItemDefinition | undefined {
  let level: FieldDefinition[] | undefined = fields;
  let found: ItemDefinition | undefined;
  for (const step of field.split('.')) {
    const name = step.replace(/(\[\])+$/, '');
    found = level?.find((f) => f.name === name);
    if (!found) return undefined;
    for (let lists = (step.length - name.length) / 2; lists > 0 && found; lists--) found = found.items;
    level = found?.fields;
  }
  return found;
}

const shown = (value: unknown) =>
  value === undefined || value === null ? 'none' : typeof value === 'string' ? value : JSON.stringify(value);

export class UpgradeImpactService {
  /** Keyed by the contract's text, never by revision id: a dry run's revision id is handed out again. */
  readonly #validators = new ValidatorCache({ capacity: 50 });

  constructor(private readonly deps: { rows: UpgradeImpactRows; migrations?: ImpactMigrations }) {}

  async of(
    actor: Actor,
    block: { id: number; block_type: BlockType; revision: Pick<Revision, 'version' | 'schema_content'> | null },
  ): Promise<UpgradeImpact | null> {
    const revision = block.revision;
    if (!revision) return null;
    const rows = await this.deps.rows.instancesOf(block.id, actor.userId);
    const to = revision.version;
    const behind = rows.filter((r) => r.version.major !== to.major || r.version.minor !== to.minor);
    const fields = revision.schema_content;
    const type = block.block_type === 'markdown' ? 'markdown' : 'schema';
    const schema = compilePlaceholderSchema(fields, type);
    const key = `${type}:${JSON.stringify(schema)}`;
    // New fields take their defaults in an upgrade (only real ones: nothing is invented).
    const defaults = fields.filter((f) => f.type !== 'binding' && f.default !== undefined);
    const groups = new Map<string, Omit<ImpactReason, 'instances' | 'message'> & { ids: Set<number> }>();
    // Instances whose revisions on the way carry value migrations are taken as those make them.
    const migrations =
      behind.length && this.deps.migrations
        ? await this.deps.migrations.migrationsOf(
            actor,
            block.id,
            to,
            behind.map((r) => ({
              version: r.version,
              fields: () => r.schema_snapshot.value,
              values: r.placeholder_values.value,
            })),
          )
        : [];
    let refused = 0;
    let migratable = 0;
    for (const [i, row] of behind.entries()) {
      const migration = migrations[i];
      let values: Record<string, unknown>;
      const errors: Array<{ path: string; code?: ErrorCode | undefined }> = [];
      if (migration) {
        const upgraded = valuesAfterUpgrade({
          from: row.schema_snapshot.value,
          to: fields,
          values: row.placeholder_values.value,
          migration,
        });
        values = upgraded.values;
        // What a step could not make, at its path under the values.
        for (const p of upgraded.problems)
          errors.push({ path: p.path.replace(/^placeholder_values\./, ''), code: p.code });
      } else {
        values = { ...row.placeholder_values.value };
        for (const f of defaults) if (!Object.hasOwn(values, f.name)) values[f.name] = f.default;
      }
      errors.push(...this.#validators.validate(key, schema, values));
      if (errors.length === 0) {
        if (row.version.major !== to.major && migration?.migratable) migratable++;
        continue;
      }
      refused++;
      for (const error of errors) {
        const field = fieldOf(error.path);
        const known = error.code === undefined ? undefined : CONSTRAINTS[error.code];
        const constraint = known?.key ?? 'value';
        const was = definitionAt(row.schema_snapshot.value, field);
        const now = definitionAt(fields, field);
        const from = known ? (was?.[constraint] ?? null) : null;
        const target = known ? (now?.[constraint] ?? null) : null;
        const group = `${field}\u0000${constraint}\u0000${JSON.stringify(from)}\u0000${JSON.stringify(target)}`;
        let entry = groups.get(group);
        if (!entry)
          groups.set(
            group,
            (entry = { field, constraint, from, to: target, code: error.code ?? 'invalid', ids: new Set() }),
          );
        entry.ids.add(row.id);
      }
    }
    const reasons = [...groups.values()]
      .map(({ ids, ...reason }) => {
        const n = ids.size;
        const known = reason.code === 'invalid' ? undefined : CONSTRAINTS[reason.code];
        const what = known ? (n === 1 ? known.one : known.many) : n === 1 ? 'does not validate' : 'do not validate';
        const step = known ? `${reason.constraint} ${shown(reason.from)} → ${shown(reason.to)}` : 'its value';
        const message = `${reason.field}: ${step}: ${n} ${n === 1 ? 'instance' : 'instances'} ${what}`;
        return { ...reason, instances: n, message };
      })
      .sort((a, b) => b.instances - a.instances || a.field.localeCompare(b.field));
    return {
      to,
      instances: rows.length,
      behind: behind.length,
      behind_major: behind.filter((r) => r.version.major !== to.major).length,
      would_not_validate: refused,
      migratable,
      reasons,
    };
  }
}
