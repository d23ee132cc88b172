import type { AnySchema } from 'ajv';
import type { FieldError } from '../../../shared/errors.js';
import { createAjv, linearRegExp } from '../../../shared/ajv.js';
import { toFieldErrors } from '../../../shared/field-errors.js';
import { simplestValue } from './example.js';
import { fieldSchema, requiredSchema, type JsonSchema } from './json-schema.js';
import { isObject } from '../../../shared/is-object.js';
import {
  FIELD_TYPES,
  MAX_FIELD_DEPTH,
  type FieldDefinition,
  type FieldType,
  type ItemDefinition,
} from './field-vocabulary.js';

export {
  FIELD_TYPES,
  MAX_FIELD_DEPTH,
  type BindingDefault,
  type FieldDefinition,
  type FieldType,
  type ItemDefinition,
} from './field-vocabulary.js';

/** Every key a field definition may have (the contract's field format); any other is a 422 at its path. */
export const DEFINITION_KEYS: ReadonlySet<string> = new Set([
  'name',
  'type',
  'label',
  'description',
  'required',
  'default',
  'options',
  'min',
  'max',
  'min_length',
  'max_length',
  'pattern',
  'items',
  'min_items',
  'max_items',
  'fields',
  'allowed_sources',
  'result_type',
]);

/** What exists in the catalog, for bindings to name: data source ids and data result type ids. */
export interface KnownCatalog {
  sources: ReadonlySet<string>;
  resultTypes: ReadonlySet<string>;
}

export const NAME_PATTERN = /^[a-z_][a-z0-9_]*$/;
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['_markdown']);
/** Names that JavaScript objects already have: a value under one of them would not be an own key, so `required` could never see it. */
export const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export type SchemaCheck = { ok: true; fields: FieldDefinition[] } | { ok: false; errors: FieldError[] };

// Each field's own schema is compiled for one check and then removed: Ajv caches by object, and
// every request brings new objects, so keeping them would grow without bound.
const ajv = createAjv({ logger: false });

type Fail = (key: string, message: string) => void;
const isNonNegativeInt = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

interface Context {
  errors: FieldError[];
  known: KnownCatalog;
  /** Bindings are slots of the block, so they live at the top level only. */
  topLevel: boolean;
  /** The example builds this list's required fields (or this item) from their simplest values. */
  needed: boolean;
  /** 1 for a top-level field, one more for each object or array it is inside. */
  depth: number;
}

/**
 * Checks `schema_content`, reporting every problem at its exact path
 * (`schema_content[2].fields[0].name`), so an integrator fixes all at once.
 * A key the field format does not name is refused at its path (a misspelt
 * `min_lenght` would otherwise be stored and silently do nothing). On success
 * the input is returned as is.
 */
export function validateSchemaContent(input: unknown, known: KnownCatalog): SchemaCheck {
  if (!Array.isArray(input))
    return {
      ok: false,
      errors: [{ path: 'schema_content', message: 'schema_content must be an array of field definitions.' }],
    };
  const errors: FieldError[] = [];
  // Required fields are treated as needed even though a markdown block makes them optional:
  // block_type can change without a new revision, and the example must hold for both.
  checkList(input, 'schema_content', { errors, known, topLevel: true, needed: true, depth: 1 });
  return errors.length ? { ok: false, errors } : { ok: true, fields: input as FieldDefinition[] };
}

function checkList(list: unknown[], path: string, ctx: Context) {
  const seen = new Set<string>();
  list.forEach((def, i) => {
    const at = `${path}[${i}]`;
    checkField(def, at, ctx, true);
    if (!isObject(def) || !isValidName(def.name)) return; // a bad name is reported once, as bad
    if (seen.has(def.name))
      ctx.errors.push({ path: `${at}.name`, message: `The name "${def.name}" is already used in this list.` });
    seen.add(def.name);
  });
}

const isValidName = (name: unknown): name is string =>
  typeof name === 'string' && NAME_PATTERN.test(name) && !RESERVED_NAMES.has(name) && !PROTOTYPE_NAMES.has(name);

function checkField(def: unknown, at: string, ctx: Context, named: boolean) {
  const { errors } = ctx;
  const before = errors.length;
  const fail: Fail = (key, message) => errors.push({ path: key ? `${at}.${key}` : at, message });
  if (!isObject(def)) return fail('', 'A field definition must be an object.');
  if (ctx.depth > MAX_FIELD_DEPTH)
    return fail('', `Fields nest at most ${MAX_FIELD_DEPTH} levels deep (objects' fields and arrays' items).`);

  for (const key of Object.keys(def)) {
    if (!DEFINITION_KEYS.has(key))
      fail(key, `Unknown key: a field definition has only ${[...DEFINITION_KEYS].join(', ')}.`);
  }
  if (named) checkName(def.name, fail);
  if (def.type === undefined) return fail('type', `This field is required: one of ${FIELD_TYPES.join(', ')}.`);
  if (typeof def.type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(def.type)) {
    return fail('type', `Unknown type ${JSON.stringify(def.type)}: use one of ${FIELD_TYPES.join(', ')}.`);
  }
  const type = def.type as FieldType;
  const needed = ctx.needed && (!named || def.required === true);
  const built = needed && def.default === undefined; // its parts come from their simplest values too

  for (const key of ['label', 'description', 'pattern', 'result_type'] as const) {
    if (def[key] !== undefined && typeof def[key] !== 'string') fail(key, 'This value should be of type string.');
  }
  if (def.required !== undefined && typeof def.required !== 'boolean')
    fail('required', 'This value should be of type bool.');
  checkBounds(def, type, fail);
  if (typeof def.pattern === 'string') {
    try {
      linearRegExp(def.pattern); // the engine Ajv runs it with: what compiles here compiles there
    } catch (error) {
      fail(
        'pattern',
        `This pattern cannot be used: ${(error as Error).message}. ` +
          'Patterns run on a linear-time engine (RE2 syntax), which has no backreferences or lookaround.',
      );
    }
  }
  checkOptions(def, type, fail);

  if (def.items !== undefined && type !== 'array') fail('items', 'items are for array fields only.');
  if (type === 'array') {
    const minItems = typeof def.min_items === 'number' ? def.min_items : 0;
    if (!isObject(def.items)) fail('items', 'An array field needs the definition of its items.');
    else if (def.items.type === 'binding') fail('items.type', 'Items cannot be bindings.');
    else
      checkField(
        def.items,
        `${at}.items`,
        { ...ctx, topLevel: false, needed: built && minItems > 0, depth: ctx.depth + 1 },
        false,
      );
  }
  if (def.fields !== undefined && type !== 'object') fail('fields', 'fields are for object fields only.');
  if (type === 'object') {
    if (!Array.isArray(def.fields)) fail('fields', 'An object field needs an array of fields.');
    else checkList(def.fields, `${at}.fields`, { ...ctx, topLevel: false, needed: built, depth: ctx.depth + 1 });
  }
  if (type === 'binding') return checkBinding(def, fail, ctx);
  for (const key of ['allowed_sources', 'result_type'] as const) {
    if (def[key] !== undefined) fail(key, `${key} is for binding fields only.`);
  }
  // A definition with problems has no trustworthy schema to judge values by.
  if (errors.length === before) checkValues(def as ItemDefinition, needed, fail);
}

function checkName(name: unknown, fail: Fail) {
  if (name === undefined || name === '') fail('name', 'This field is required.');
  else if (typeof name !== 'string') fail('name', 'This value should be of type string.');
  else if (RESERVED_NAMES.has(name)) fail('name', `"${name}" is reserved for the main content of markdown blocks.`);
  else if (!NAME_PATTERN.test(name)) fail('name', 'The name must match ^[a-z_][a-z0-9_]*$.');
  else if (PROTOTYPE_NAMES.has(name))
    fail('name', `"${name}" is a name every JavaScript object already has: choose another.`);
}

function checkBounds(def: Record<string, unknown>, type: FieldType, fail: Fail) {
  for (const key of ['min', 'max'] as const) {
    if (def[key] !== undefined && typeof def[key] !== 'number') fail(key, 'This value should be of type number.');
  }
  for (const key of ['min_length', 'max_length', 'min_items', 'max_items'] as const) {
    if (def[key] !== undefined && !isNonNegativeInt(def[key]))
      fail(key, 'This value should be a non-negative integer.');
  }
  for (const [low, high] of [
    ['min', 'max'],
    ['min_length', 'max_length'],
    ['min_items', 'max_items'],
  ] as const) {
    const [a, b] = [def[low], def[high]];
    if (typeof a !== 'number' || typeof b !== 'number') continue;
    if (a > b) fail(low, `${low} is greater than ${high}.`);
    else if (low === 'min' && type === 'integer' && Math.ceil(a) > Math.floor(b))
      fail(low, 'No integer lies between min and max.');
  }
}

function checkOptions(def: Record<string, unknown>, type: FieldType, fail: Fail) {
  if (type !== 'select') {
    if (def.options !== undefined) fail('options', 'options are for select fields only.');
    return;
  }
  const options = def.options;
  if (!Array.isArray(options) || options.length === 0)
    return fail('options', 'A select field needs a non-empty array of options.');
  options.forEach(
    (option, j) => typeof option !== 'string' && fail(`options[${j}]`, 'This value should be of type string.'),
  );
  if (new Set(options).size !== options.length) fail('options', 'The options must be unique.');
}

/** The default must be a value of the field; a needed field without one must have a simplest value that is. */
function checkValues(def: ItemDefinition, needed: boolean, fail: Fail) {
  // A required field's own schema: a required text's default is not "".
  const schema = def.required === true ? requiredSchema(fieldSchema(def)) : fieldSchema(def);
  if (def.default !== undefined) {
    const problems = problemsOf(schema, def.default);
    if (problems) fail('default', `The default is not a valid value of this field: ${problems}`);
  } else if (needed && def.type !== 'object' && def.type !== 'array' && problemsOf(schema, simplestValue(def))) {
    // Objects and arrays are built from their parts, which are checked where they are defined.
    fail(
      'default',
      'This required field needs a default: no simple value meets its constraints, so no example could be built.',
    );
  }
}

/** Why `value` breaks `schema`, as one sentence; null when it does not. */
function problemsOf(schema: JsonSchema, value: unknown): string | null {
  try {
    const validate = ajv.compile(schema as AnySchema);
    if (validate(value)) return null;
    return toFieldErrors(validate.errors ?? [], 'default')
      .map((e) => `${e.path}: ${e.message}`)
      .join(' ');
  } catch (error) {
    return `its constraints cannot be compiled (${(error as Error).message}).`;
  } finally {
    ajv.removeSchema(schema);
  }
}

function checkBinding(def: Record<string, unknown>, fail: Fail, ctx: Context) {
  if (!ctx.topLevel)
    fail('type', 'Binding fields are allowed at the top level only: each is a live-data slot of the block.');
  const sources = def.allowed_sources;
  if (!Array.isArray(sources) || sources.length === 0) {
    return fail('allowed_sources', 'A binding needs a non-empty array of data source ids (GET /data-sources).');
  }
  sources.forEach((source, j) => {
    if (typeof source !== 'string') fail(`allowed_sources[${j}]`, 'This value should be of type string.');
    else if (!ctx.known.sources.has(source))
      fail(`allowed_sources[${j}]`, `Unknown data source "${source}" (GET /data-sources).`);
  });
  if (typeof def.result_type === 'string' && !ctx.known.resultTypes.has(def.result_type))
    fail('result_type', `Unknown data result type "${def.result_type}" (GET /data-result-types).`);
  if (def.default === undefined || def.default === null) return;
  if (!isObject(def.default) || typeof def.default.source !== 'string')
    return fail('default', 'A binding default is {source, params}.');
  if (!sources.includes(def.default.source))
    fail('default.source', 'The default source must be one of allowed_sources.');
  if (def.default.params !== undefined && !isObject(def.default.params))
    fail('default.params', 'params must be an object.');
}
