/**
 * The values of one instance carried through a chain of revisions: each
 * revision's steps in order, then its new top-level fields' defaults where
 * the values leave them out (as an upgrade fills them). Pure and synchronous:
 * a derive runs through the `derive` function it is given (LiquidJS under the
 * renderer's limits, on a render thread: `MigrationRunner`).
 */
import { convertTo } from './conversions.js';
import {
  DERIVE_OUTPUT_LIMIT,
  type DeriveFn,
  type MigratedValue,
  type MigrationLink,
  type MigrationOutcome,
  type MigrationProblem,
  type MigrationStep,
} from './migration-steps.js';
import { definitionAt, parsePath, put, readAll, removeAt, targets, type PathToken } from './value-paths.js';
import type { ItemDefinition } from '../schema/field-vocabulary.js';

const clone = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));
const isMissing = (holder: Record<string, unknown>, name: string) =>
  !Object.hasOwn(holder, name) || holder[name] === undefined || holder[name] === null;

/**
 * `values` (not changed) after every link of `chain`, the revisions from the
 * one after the instance's up to the target, in order. `migrated` lists each
 * value a step carried, set, converted, dropped or made, with its concrete
 * path before and after; `problems`, each value a step could not make (then
 * the migration is to be refused: what was made stays in `values` for a
 * report, nothing more). Steps are trusted to be checked (`checkMigrations`);
 * a path that does not parse is passed over.
 */
export function migrateValues(
  values: Record<string, unknown>,
  chain: readonly MigrationLink[],
  derive?: DeriveFn,
): MigrationOutcome {
  const doc = clone(values);
  const migrated: MigratedValue[] = [];
  const problems: MigrationProblem[] = [];
  for (const link of chain) {
    for (const [step, migration] of link.migrations.entries()) {
      const stopped = applyStep(doc, migration, { link, step, migrated, problems, derive });
      if (stopped) return { values: doc, migrated, problems };
    }
    for (const field of link.fields) {
      if (field.type === 'binding' || field.default === undefined) continue;
      if (!Object.hasOwn(doc, field.name)) put(doc, field.name, clone(field.default));
    }
  }
  return { values: doc, migrated, problems };
}

interface StepContext {
  link: MigrationLink;
  step: number;
  migrated: MigratedValue[];
  problems: MigrationProblem[];
  derive: DeriveFn | undefined;
}

/** Applies one step; true when the migration must stop (a derive over its limits: the next would be too). */
function applyStep(doc: Record<string, unknown>, m: MigrationStep, ctx: StepContext): boolean {
  const { link, step } = ctx;
  const note = (entry: Omit<MigratedValue, 'version' | 'step' | 'op'>) =>
    ctx.migrated.push({ version: link.version, step, op: m.op, ...entry });
  const problem = (path: string, message: string) =>
    ctx.problems.push({ version: link.version, step, path, message, code: 'invalid' });
  const defOf = (tokens: PathToken[]): ItemDefinition | undefined => {
    const found = definitionAt(link.fields, tokens);
    return 'def' in found ? found.def : undefined;
  };
  switch (m.op) {
    case 'rename':
    case 'move':
    case 'convert': {
      const from = parsePath(m.from);
      const to = parsePath(m.to ?? m.from);
      if (!from || !to) return false;
      const def = m.op === 'convert' ? defOf(to) : undefined;
      const same = m.op === 'convert' && (m.to === undefined || m.to === m.from);
      for (const found of readAll(doc, from)) {
        let value = found.value;
        if (def) {
          const converted = convertTo(value, def, m.op === 'convert' ? m.separator : undefined);
          if (!converted.ok) {
            problem(found.path, `${m.op} ${m.from}: ${converted.message}`);
            continue;
          }
          value = converted.value;
        }
        if (!same) removeAt(doc, from, found.indices);
        for (const target of targets(doc, same ? from : to, found.indices)) {
          put(target.holder, target.name, value);
          note({ from: found.path, path: target.path, before: found.value, after: value });
        }
      }
      return false;
    }
    case 'drop': {
      const from = parsePath(m.from);
      if (!from) return false;
      for (const found of readAll(doc, from).reverse()) {
        removeAt(doc, from, found.indices);
        note({ from: found.path, path: found.path, before: found.value, after: undefined });
      }
      return false;
    }
    case 'set':
    case 'default': {
      const to = parsePath(m.to);
      if (!to) return false;
      for (const target of targets(doc, to)) {
        if (m.op === 'default' && !isMissing(target.holder, target.name)) continue;
        const before = Object.hasOwn(target.holder, target.name) ? target.holder[target.name] : undefined;
        const value = clone(m.value);
        put(target.holder, target.name, value);
        note({ path: target.path, before, after: value });
      }
      return false;
    }
    case 'derive': {
      const to = parsePath(m.to);
      const def = to && defOf(to);
      if (!to || !def) return false;
      if (!ctx.derive)
        throw new Error('A derive step needs a derive function (MigrationRunner runs it on a render thread).');
      const inList = to.some((t) => t.kind !== 'key');
      for (const target of targets(doc, to)) {
        const scope: Record<string, unknown> = { ...doc };
        if (inList) put(scope, 'item', target.item);
        const made = ctx.derive(m.expression, scope);
        if (!made.ok) {
          problem(target.path, `derive ${m.to}: ${made.message}`);
          if (made.limit) return true;
          continue;
        }
        if (made.text.length > DERIVE_OUTPUT_LIMIT) {
          problem(
            target.path,
            `derive ${m.to}: it made ${made.text.length} characters, over the limit of ${DERIVE_OUTPUT_LIMIT}.`,
          );
          return true;
        }
        const converted =
          def.type === 'object'
            ? { ok: false as const, message: 'an object cannot be derived.' }
            : kindText(made.text, def);
        if (!converted.ok) {
          problem(target.path, `derive ${m.to}: ${converted.message}`);
          continue;
        }
        const before = Object.hasOwn(target.holder, target.name) ? target.holder[target.name] : undefined;
        put(target.holder, target.name, converted.value);
        note({ path: target.path, before, after: converted.value });
      }
      return false;
    }
  }
}

/** A derive's text as a value of its field: text stays text; a number, a yes/no or a list is read from it. */
function kindText(text: string, def: ItemDefinition) {
  const kind = def.type;
  if (kind === 'number' || kind === 'integer' || kind === 'boolean' || kind === 'array')
    return convertTo(text.trim(), def);
  return { ok: true as const, value: text };
}
