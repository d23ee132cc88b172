import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** An Ajv for user-made schemas (block fields, data sources): every error, no coercion, Draft-07 formats. */
export function createAjv(options: Options = {}): Ajv {
  // verbose: each error carries its schema and data, which the near-miss hints read.
  return addFormats(new Ajv({ allErrors: true, strict: false, coerceTypes: false, verbose: true, ...options }));
}
