/**
 * The checks of a block update's `migrations`, against the fields of the
 * revision before (where values come from) and of the new one (where they go):
 * every problem at its exact path (`migrations[2].from`). And which removed
 * fields a revision's steps leave uncovered: a major change whose every
 * removed field is carried or dropped on purpose is migratable. Pure.
 */
import type { AnySchema } from 'ajv';
import { createAjv } from '../../../shared/ajv.js';
import type { FieldError } from '../../../shared/errors.js';
import { toFieldErrors } from '../../../shared/field-errors.js';
import { isObject } from '../../../shared/is-object.js';
import { fieldSchema, requiredSchema } from '../schema/json-schema.js';
import type { FieldDefinition, ItemDefinition } from '../schema/field-vocabulary.js';
import { removedFields } from '../schema/version-bump.js';
import { CONVERTIBLE } from './conversions.js';
import {
  DERIVE_EXPRESSION_LIMIT,
  MIGRATION_STEPS_LIMIT,
  STEP_OPS,
  type MigrationLink,
  type MigrationStep,
  type StepOp,
} from './migration-steps.js';
import {
  definitionAt,
  eachCount,
  fieldPath,
  kindOf,
  overlaps,
  parsePath,
  type PathToken,
  type ValueKind,
} from './value-paths.js';

/** The keys each step has, the required first. */
const KEYS: Record<StepOp, { required: string[]; optional: string[] }> = {
  rename: { required: ['from', 'to'], optional: [] },
  move: { required: ['from', 'to'], optional: [] },
  set: { required: ['to', 'value'], optional: [] },
  default: { required: ['to', 'value'], optional: [] },
  convert: { required: ['from'], optional: ['to', 'separator'] },
  drop: { required: ['from'], optional: [] },
  derive: { required: ['to', 'expression'], optional: [] },
};

const PATH_HELP =
  'A path is field names joined by dots, each with [] for every item of a list or [N] for item N, ending with a name: ' +
  'title, author.name, items[].caption, slides[0].image.';

const KIND_WORDS: Record<ValueKind, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'yes or no',
  list: 'a list',
  object: 'an object',
};

// Compiled for one check and removed (as field-definitions.ts does): each request brings new objects.
const ajv = createAjv({ logger: false });

export type MigrationsCheck = { ok: true; steps: MigrationStep[] } | { ok: false; errors: FieldError[] };

interface Written {
  tokens: PathToken[];
  step: number;
  op: StepOp;
  /** Where the value first stood, for a value carried by rename or move: a rename back there is a cycle. */
  origin?: PathToken[];
  originText?: string;
}

const same = (a: PathToken[], b: PathToken[]) => a.length === b.length && overlaps(a, b);

/**
 * Checks `input` (a request's `migrations`) as steps from `before` (the
 * fields of the block's current revision) to `after` (the new revision's).
 * Steps run in order: a step may read what an earlier one wrote (typed by the
 * new fields), never what an earlier one moved away or dropped, and a value
 * renamed back where it stood is a cycle.
 */
export function checkMigrations(
  input: unknown,
  before: readonly FieldDefinition[],
  after: readonly FieldDefinition[],
): MigrationsCheck {
  if (!Array.isArray(input))
    return {
      ok: false,
      errors: [{ path: 'migrations', message: 'migrations must be an array of steps.', code: 'type' }],
    };
  if (input.length > MIGRATION_STEPS_LIMIT)
    return {
      ok: false,
      errors: [{ path: 'migrations', message: `At most ${MIGRATION_STEPS_LIMIT} steps.`, code: 'too_many' }],
    };
  const errors: FieldError[] = [];
  const written: Written[] = [];
  const gone: Array<{ tokens: PathToken[]; step: number; to?: string }> = [];
  input.forEach((raw, i) => {
    const at = `migrations[${i}]`;
    const fail = (key: string, message: string, code: FieldError['code'] = 'invalid') =>
      errors.push({ path: key ? `${at}.${key}` : at, message, code });
    if (!isObject(raw)) return fail('', 'A step is an object with an op.', 'type');
    const op = raw.op as StepOp;
    if (!STEP_OPS.includes(op))
      return fail('op', `Unknown op ${JSON.stringify(raw.op)}: one of ${STEP_OPS.join(', ')}.`, 'enum');
    const keys = KEYS[op];
    for (const key of Object.keys(raw)) {
      if (key !== 'op' && !keys.required.includes(key) && !keys.optional.includes(key))
        fail(key, `A ${op} step has ${['op', ...keys.required, ...keys.optional].join(', ')} only.`, 'unknown_key');
    }
    for (const key of keys.required) if (!Object.hasOwn(raw, key)) fail(key, 'This field is required.', 'required');
    const before0 = errors.length;

    // Where a value is read: the old fields, or (written by an earlier step) the new ones.
    const source = (key: 'from'): { tokens: PathToken[]; def: ItemDefinition; wrote?: Written } | undefined => {
      const tokens = parsePath(raw[key]);
      if (!tokens) return void fail(key, `Not a path. ${PATH_HELP}`, 'format');
      const away = gone.find((g) => overlaps(g.tokens, tokens));
      if (away) {
        const where = away.to ? ` to ${away.to}` : '';
        return void fail(
          key,
          `migrations[${away.step}] already took this value away${where}: read it there.`,
          'conflict',
        );
      }
      const wrote = [...written].reverse().find((w) => overlaps(w.tokens, tokens));
      const found = definitionAt(wrote ? after : before, tokens);
      if ('missing' in found)
        return void fail(key, `${found.missing} (in the ${wrote ? 'new' : 'previous'} revision's fields)`, 'not_found');
      return { tokens, def: found.def, ...(wrote ? { wrote } : {}) };
    };
    // Where a value goes: always the new fields.
    const target = (key: 'to', text: unknown = raw[key]): { tokens: PathToken[]; def: ItemDefinition } | undefined => {
      const tokens = parsePath(text);
      if (!tokens) return void fail(key, `Not a path. ${PATH_HELP}`, 'format');
      const found = definitionAt(after, tokens);
      if ('missing' in found) return void fail(key, `${found.missing} (in the new fields)`, 'not_found');
      return { tokens, def: found.def };
    };
    const overwrites = (tokens: PathToken[]) => {
      const earlier = written.find((w) => same(w.tokens, tokens) && w.op !== 'default');
      if (earlier)
        fail('to', `migrations[${earlier.step}] already writes ${String(raw.to)}: one step per value.`, 'conflict');
      return earlier !== undefined;
    };

    switch (op) {
      case 'rename':
      case 'move': {
        const from = source('from');
        const to = target('to');
        if (!from || !to) return;
        if (op === 'rename' && !same(from.tokens.slice(0, -1), to.tokens.slice(0, -1)))
          return fail('to', 'A rename keeps the field in the same object: use move to take it elsewhere.');
        if (overlaps(from.tokens, to.tokens))
          return fail(
            'to',
            `${String(raw.to)} and ${String(raw.from)} are one inside the other: a value cannot move into itself.`,
          );
        if (eachCount(from.tokens) !== eachCount(to.tokens))
          return fail('to', 'from and to need as many [] each: item goes to item, in order ([N] names one item).');
        const [was, now] = [kindOf(from.def), kindOf(to.def)];
        if (was !== now)
          return fail(
            'to',
            `${String(raw.from)} holds ${KIND_WORDS[was]}, ${String(raw.to)} takes ${KIND_WORDS[now]}: use convert.`,
          );
        const origin = from.wrote?.origin ?? from.tokens;
        const originText = from.wrote?.originText ?? String(raw.from);
        if (from.wrote?.origin && same(origin, to.tokens))
          return fail(
            'to',
            `This puts the value of ${originText} back where it stood (migrations[${from.wrote.step}] moved it): a cycle of renames.`,
          );
        if (overwrites(to.tokens)) return;
        if (errors.length > before0) return;
        gone.push({ tokens: from.tokens, step: i, to: String(raw.to) });
        written.push({ tokens: to.tokens, step: i, op, origin, originText });
        return;
      }
      case 'convert': {
        const from = source('from');
        const to = target('to', raw.to ?? raw.from);
        if (!from || !to) return;
        if (
          raw.separator !== undefined &&
          (typeof raw.separator !== 'string' || raw.separator.length < 1 || raw.separator.length > 10)
        )
          fail('separator', 'A separator is 1 to 10 characters.');
        const [was, now] = [kindOf(from.def), kindOf(to.def)];
        if (!CONVERTIBLE.has(was))
          return fail('from', `${String(raw.from)} holds ${KIND_WORDS[was]}: it cannot be converted.`);
        if (!CONVERTIBLE.has(now))
          return fail('to', `${String(raw.to ?? raw.from)} takes ${KIND_WORDS[now]}: nothing is converted into one.`);
        for (const [key, def] of [
          ['from', from.def],
          ['to', to.def],
        ] as const) {
          if (def.type === 'array' && def.items && !CONVERTIBLE.has(kindOf(def.items)))
            fail(key, 'A list of objects cannot be converted.');
          if (def.type === 'array' && def.items && kindOf(def.items) === 'list')
            fail(key, 'A list of lists cannot be converted.');
        }
        const moves = !same(from.tokens, to.tokens);
        if (moves) {
          if (overlaps(from.tokens, to.tokens)) return fail('to', 'from and to are one inside the other.');
          if (eachCount(from.tokens) !== eachCount(to.tokens))
            return fail('to', 'from and to need as many [] each: item goes to item, in order.');
          if (overwrites(to.tokens)) return;
        }
        if (errors.length > before0) return;
        if (moves) gone.push({ tokens: from.tokens, step: i, to: String(raw.to) });
        written.push({ tokens: to.tokens, step: i, op });
        return;
      }
      case 'drop': {
        const from = source('from');
        if (from && errors.length === before0) gone.push({ tokens: from.tokens, step: i });
        return;
      }
      case 'set':
      case 'default': {
        const to = target('to');
        if (!to || !Object.hasOwn(raw, 'value')) return;
        if (op === 'set' && overwrites(to.tokens)) return;
        if (to.def.type === 'binding') return fail('to', 'Bindings are not values.');
        const problems = valueProblems(to.def, raw.value);
        if (problems) return fail('value', `This is not a value of ${String(raw.to)}: ${problems}`, 'type');
        written.push({ tokens: to.tokens, step: i, op });
        return;
      }
      case 'derive': {
        const to = target('to');
        if (typeof raw.expression !== 'string' || raw.expression.trim() === '')
          fail(
            'expression',
            'A Liquid template that makes the value, such as {{ first_name }} {{ last_name }}.',
            'type',
          );
        else if (raw.expression.length > DERIVE_EXPRESSION_LIMIT)
          fail('expression', `At most ${DERIVE_EXPRESSION_LIMIT} characters.`, 'too_long');
        if (!to) return;
        if (kindOf(to.def) === 'object')
          return fail('to', 'A derive makes text, a number, yes or no, or a list: not an object.');
        if (overwrites(to.tokens)) return;
        if (errors.length === before0) written.push({ tokens: to.tokens, step: i, op });
        return;
      }
    }
  });
  return errors.length ? { ok: false, errors } : { ok: true, steps: input as MigrationStep[] };
}

/** Why `value` is not a value of `def`, as one sentence; null when it is one. */
function valueProblems(def: ItemDefinition, value: unknown): string | null {
  const schema = def.required === true ? requiredSchema(fieldSchema(def)) : fieldSchema(def);
  try {
    const validate = ajv.compile(schema as AnySchema);
    if (validate(value)) return null;
    return toFieldErrors(validate.errors ?? [], 'value')
      .map((e) => `${e.path}: ${e.message}`)
      .join(' ');
  } finally {
    ajv.removeSchema(schema);
  }
}

/** Whether a step takes the value at a removed field's path away on purpose (carried elsewhere, or dropped). */
function covers(step: MigrationStep, removed: string): boolean {
  if (step.op !== 'rename' && step.op !== 'move' && step.op !== 'drop' && step.op !== 'convert') return false;
  if (step.op === 'convert' && (step.to === undefined || step.to === step.from)) return false;
  if (/\[\d+\]/.test(step.from)) return false; // one item's value, not every item's
  const from = fieldPath(step.from);
  return removed === from || removed.startsWith(`${from}.`) || removed.startsWith(`${from}[`);
}

/** The removed fields (`removedFields`' paths) from `before` to `after` that no step covers. */
export function uncoveredFields(
  steps: readonly MigrationStep[],
  before: readonly FieldDefinition[],
  after: readonly FieldDefinition[],
): string[] {
  return removedFields(before, after).filter((path) => !steps.some((step) => covers(step, path)));
}

/**
 * Whether a chain carries every removed field of each of its links: from
 * `start` (the instance's revision's fields) through each link. `uncovered`
 * names each field left, with the version that removed it.
 */
export function chainCoverage(
  start: readonly FieldDefinition[],
  chain: readonly MigrationLink[],
): { migratable: boolean; uncovered: Array<{ field: string; version: MigrationLink['version'] }> } {
  const uncovered: Array<{ field: string; version: MigrationLink['version'] }> = [];
  let previous = start;
  for (const link of chain) {
    for (const field of uncoveredFields(link.migrations, previous, link.fields))
      uncovered.push({ field, version: link.version });
    previous = link.fields;
  }
  return { migratable: uncovered.length === 0, uncovered };
}
