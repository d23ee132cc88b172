import { Ajv, type Options, type Schema } from 'ajv';
import addFormatsModule from 'ajv-formats';

// A CommonJS package: its function is the module itself and, as typed, its `default` (both hold it).
const addFormats = addFormatsModule.default;

// verbose: each error carries its schema and data, which the near-miss hints read.
const common: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false, verbose: true };

// Bodies are JSON and typed: `"site_id": "1"` is an error, never coerced.
const bodyAjv = addFormats(new Ajv({ ...common, coerceTypes: false }));
// Query strings and path parameters are text by nature: `?limit=20` becomes 20.
const textAjv = addFormats(new Ajv({ ...common, coerceTypes: true }));

/** Query strings and path parameters are coerced from text; bodies never are. */
export const compileValidator = (schema: Schema, httpPart: string | undefined) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema);

export { pointerToPath, toFieldErrors } from '../shared/field-errors.js';
