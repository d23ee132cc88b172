import type { AnySchema, ValidateFunction } from 'ajv';
import { createAjv } from '../../shared/ajv.js';
import type { FieldError } from '../../shared/errors.js';
import { toFieldErrors } from '../../shared/field-errors.js';
import type { JsonSchema } from './catalog.js';

// Draft-07 like every other user-made schema; unknown formats are ignored without a console line.
const ajv = createAjv({ useDefaults: false, logger: false });

const DRAFT_07 = /^http:\/\/json-schema\.org\/draft-07\/schema#?$/;

/** Compiles `schema` for one use and leaves nothing in Ajv's cache (an admin sends a new object every time). */
function compiledOnce<T>(schema: JsonSchema, work: (validate: ValidateFunction) => T): T {
  try {
    return work(ajv.compile(schema as AnySchema));
  } finally {
    ajv.removeSchema(schema);
  }
}

/**
 * Why `schema` is not a usable draft-07 JSON Schema, at paths under `at`
 * (`schema_json.properties.title.type`); [] when it is one.
 */
export function schemaErrors(schema: JsonSchema, at: string): FieldError[] {
  if (schema.$schema !== undefined && !(typeof schema.$schema === 'string' && DRAFT_07.test(schema.$schema))) {
    return [
      {
        path: `${at}.$schema`,
        message:
          'Only JSON Schema draft-07 is supported: leave $schema out or set http://json-schema.org/draft-07/schema#.',
      },
    ];
  }
  // The catalog id is the schema's identity; a root $id would also clash inside shared validators.
  if (schema.$id !== undefined)
    return [{ path: `${at}.$id`, message: 'Leave $id out: the catalog id identifies this schema.' }];
  try {
    if (!ajv.validateSchema(schema)) return toFieldErrors(ajv.errors ?? [], at);
    compiledOnce(schema, () => undefined);
    return [];
  } catch (error) {
    // Valid against the meta-schema yet not compilable: an unresolvable $ref, a bad regular expression.
    return [{ path: at, message: `This JSON Schema cannot be compiled: ${(error as Error).message}` }];
  }
}

/** Where `value` breaks `schema` (one that passed `schemaErrors`), at paths under `at` (`stub[0].title`). */
export function valueErrors(schema: JsonSchema, value: unknown, at: string): FieldError[] {
  return compiledOnce(schema, (validate) => (validate(value) ? [] : toFieldErrors(validate.errors ?? [], at)));
}

/**
 * What a `params_schema` needs besides being a JSON Schema: params are an
 * object whose keys are named under `properties`. Whether it says
 * `additionalProperties: false` does not matter: a binding with an invented
 * key is refused anyway (pages' instance builder).
 */
export function paramsSchemaErrors(schema: JsonSchema, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (schema.type !== 'object')
    errors.push({ path: `${at}.type`, message: 'params are an object: set "type": "object".' });
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) {
    errors.push({
      path: `${at}.properties`,
      message: 'Name every param under "properties" ({} for a source without params).',
    });
  }
  return errors;
}
