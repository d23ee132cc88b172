import type { ValidateFunction } from 'ajv';
import type { FieldError } from '../../../shared/errors.js';
import { createAjv } from '../../../shared/ajv.js';
import { toFieldErrors } from '../../../shared/field-errors.js';
import type { JsonSchema } from './json-schema.js';

const MAX_CACHED = 2000;

/** Validates `placeholder_values`; the Ajv function of a revision is compiled once (revisions are immutable). */
export class ValuesValidator {
  private readonly ajv = createAjv({ useDefaults: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  /** `key` names the schema (revision id and block type); `prefix` is the path of the values in the body. */
  validate(key: string, schema: JsonSchema, values: unknown, prefix: string): FieldError[] {
    let validate = this.compiled.get(key);
    if (!validate) {
      const { $schema: _draft, ...body } = schema;
      validate = this.ajv.compile(body);
      if (this.compiled.size >= MAX_CACHED) this.compiled.delete(this.compiled.keys().next().value as string);
      this.compiled.set(key, validate);
    }
    return validate(values) ? [] : toFieldErrors(validate.errors ?? [], prefix);
  }
}
