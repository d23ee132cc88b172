import type { FieldError } from '../../../shared/errors.js';
import { createAjv } from '../../../shared/ajv.js';
import { fieldSchema } from './json-schema.js';

export const FIELD_TYPES = [
  'string', 'text', 'richtext', 'number', 'integer', 'boolean', 'url', 'image', 'color', 'date', 'select', 'array', 'object', 'binding',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The definition of each item of an `array` field: a field without a name. */
export interface ItemDefinition {
  name?: string;
  type: FieldType;
  label?: string;
  description?: string;
  required?: boolean;
  default?: unknown;
  options?: string[];
  min?: number;
  max?: number;
  min_length?: number;
  max_length?: number;
  pattern?: string;
  items?: ItemDefinition;
  min_items?: number;
  max_items?: number;
  fields?: FieldDefinition[];
  allowed_sources?: string[];
  result_type?: string;
  [key: string]: unknown;
}

/** One field of a block (contract.md section 6). Unknown keys are kept: definitions are free-form. */
export interface FieldDefinition extends ItemDefinition {
  name: string;
}

export const NAME_PATTERN = /^[a-z_][a-z0-9_]*$/;
export const RESERVED_NAMES = new Set(['_markdown']);

export type SchemaCheck = { ok: true; fields: FieldDefinition[] } | { ok: false; errors: FieldError[] };

const ajv = createAjv({ useDefaults: false });
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNonNegativeInt = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

/**
 * Checks `schema_content`, reporting every problem at its exact path
 * (`schema_content[2].fields[0].name`), so an integrator fixes all at once.
 */
export function validateSchemaContent(input: unknown, knownSources: ReadonlySet<string>): SchemaCheck {
  const errors: FieldError[] = [];
  if (!Array.isArray(input)) return { ok: false, errors: [{ path: 'schema_content', message: 'schema_content must be an array of field definitions.' }] };
  checkFields(input, 'schema_content', { errors, knownSources, topLevel: true });
  return errors.length ? { ok: false, errors } : { ok: true, fields: input as FieldDefinition[] };
}

interface Context {
  errors: FieldError[];
  knownSources: ReadonlySet<string>;
  topLevel: boolean;
}

function checkFields(list: unknown[], path: string, ctx: Context) {
  const seen = new Set<string>();
  list.forEach((def, i) => {
    const at = `${path}[${i}]`;
    checkField(def, at, { ...ctx }, true);
    if (isObject(def) && typeof def.name === 'string') {
      if (seen.has(def.name)) ctx.errors.push({ path: `${at}.name`, message: `The name "${def.name}" is already used in this list.` });
      seen.add(def.name);
    }
  });
}

function checkField(def: unknown, at: string, ctx: Context, named: boolean) {
  const { errors } = ctx;
  const fail = (key: string, message: string) => errors.push({ path: key ? `${at}.${key}` : at, message });
  if (!isObject(def)) return fail('', 'A field definition must be an object.');

  if (named) {
    if (typeof def.name !== 'string' || def.name === '') fail('name', 'This field is required.');
    else if (RESERVED_NAMES.has(def.name)) fail('name', `"${def.name}" is reserved.`);
    else if (!NAME_PATTERN.test(def.name)) fail('name', 'The name must match ^[a-z_][a-z0-9_]*$.');
  }
  if (typeof def.type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(def.type)) {
    return fail('type', `Unknown type ${JSON.stringify(def.type)}: use one of ${FIELD_TYPES.join(', ')}.`);
  }
  const type = def.type as FieldType;
  for (const key of ['label', 'description', 'pattern', 'result_type'] as const) {
    if (def[key] !== undefined && typeof def[key] !== 'string') fail(key, 'This value should be of type string.');
  }
  if (def.required !== undefined && typeof def.required !== 'boolean') fail('required', 'This value should be of type bool.');

  checkBounds(def, fail);
  if (typeof def.pattern === 'string') {
    try {
      new RegExp(def.pattern, 'u');
    } catch {
      fail('pattern', 'This is not a valid regular expression.');
    }
  }
  if (def.options !== undefined && type !== 'select') fail('options', 'options are for select fields only.');
  if (type === 'select') {
    const options = def.options;
    if (!Array.isArray(options) || options.length === 0) fail('options', 'A select field needs a non-empty array of options.');
    else {
      options.forEach((o, j) => typeof o !== 'string' && fail(`options[${j}]`, 'This value should be of type string.'));
      if (new Set(options).size !== options.length) fail('options', 'The options must be unique.');
    }
  }
  if (def.items !== undefined && type !== 'array') fail('items', 'items are for array fields only.');
  if (type === 'array') {
    if (!isObject(def.items)) fail('items', 'An array field needs the definition of its items.');
    else if (def.items.type === 'binding') fail('items.type', 'Items cannot be bindings.');
    else checkField(def.items, `${at}.items`, { ...ctx, topLevel: false }, false);
  }
  if (def.fields !== undefined && type !== 'object') fail('fields', 'fields are for object fields only.');
  if (type === 'object') {
    if (!Array.isArray(def.fields)) fail('fields', 'An object field needs an array of fields.');
    else checkFields(def.fields, `${at}.fields`, { ...ctx, topLevel: false });
  }
  if (type === 'binding') return checkBinding(def, fail, ctx);
  for (const key of ['allowed_sources', 'result_type'] as const) {
    if (def[key] !== undefined) fail(key, `${key} is for binding fields only.`);
  }
  if (def.default !== undefined && !errors.some((e) => e.path.startsWith(`${at}.`) || e.path === at)) {
    const validate = ajv.compile(fieldSchema(def as FieldDefinition));
    if (!validate(def.default)) fail('default', `The default is not a valid value of this field (${ajv.errorsText(validate.errors, { dataVar: 'default' })}).`);
  }
}

function checkBounds(def: Record<string, unknown>, fail: (key: string, message: string) => void) {
  for (const key of ['min', 'max'] as const) {
    if (def[key] !== undefined && typeof def[key] !== 'number') fail(key, 'This value should be of type number.');
  }
  for (const key of ['min_length', 'max_length', 'min_items', 'max_items'] as const) {
    if (def[key] !== undefined && !isNonNegativeInt(def[key])) fail(key, 'This value should be a non-negative integer.');
  }
  for (const [low, high] of [['min', 'max'], ['min_length', 'max_length'], ['min_items', 'max_items']] as const) {
    if (typeof def[low] === 'number' && typeof def[high] === 'number' && (def[low] as number) > (def[high] as number)) {
      fail(low, `${low} is greater than ${high}.`);
    }
  }
}

function checkBinding(def: Record<string, unknown>, fail: (key: string, message: string) => void, ctx: Context) {
  if (!ctx.topLevel) fail('type', 'Binding fields are allowed at the top level only: each is a live-data slot of the block.');
  const sources = def.allowed_sources;
  if (!Array.isArray(sources) || sources.length === 0) return fail('allowed_sources', 'A binding needs a non-empty array of data source ids (GET /data-sources).');
  sources.forEach((source, j) => {
    if (typeof source !== 'string') fail(`allowed_sources[${j}]`, 'This value should be of type string.');
    else if (!ctx.knownSources.has(source)) fail(`allowed_sources[${j}]`, `Unknown data source "${source}" (GET /data-sources).`);
  });
  if (def.default === undefined || def.default === null) return;
  if (!isObject(def.default) || typeof def.default.source !== 'string') return fail('default', 'A binding default is {source, params}.');
  if (!sources.includes(def.default.source)) fail('default.source', 'The default source must be one of allowed_sources.');
  if (def.default.params !== undefined && !isObject(def.default.params)) fail('default.params', 'params must be an object.');
}
