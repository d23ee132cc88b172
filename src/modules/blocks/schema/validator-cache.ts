import type { AnySchema, Ajv, ValidateFunction } from 'ajv';
import { createAjv } from '../../../shared/ajv.js';
import { CrossRequestCache } from '../../../shared/cross-request-cache.js';
import type { FieldError } from '../../../shared/errors.js';
import { toFieldErrors } from '../../../shared/field-errors.js';
import { fieldMessage } from '../../../../words/field-messages.js';
import type { JsonSchema } from './json-schema.js';

export interface ValidatorCacheOptions {
  /** How many compiled schemas to keep; the least recently used goes first. Default 1000. */
  capacity?: number;
  /** Default: one Ajv of this cache (all errors, no coercion, no defaults filled in, draft-07 formats). */
  ajv?: Ajv;
}

interface Entry {
  schema: AnySchema;
  validate: ValidateFunction;
}

/**
 * Validates `placeholder_values` against a block's compiled placeholder schema,
 * compiling each schema once. Revisions are immutable, so a key made of the
 * revision id and the block type (`${revisionId}:${blockType}`; block_type can
 * change without a new revision) names one schema for good.
 */
export class ValidatorCache {
  private readonly ajv: Ajv;
  private readonly entries: CrossRequestCache<string, Entry>;

  constructor(options: ValidatorCacheOptions = {}) {
    const ajv = (this.ajv = options.ajv ?? createAjv({ logger: false }));
    this.entries = new CrossRequestCache({
      budget: Math.max(1, options.capacity ?? 1000),
      // Ajv keeps every compiled schema by object; without this the cache would only look bounded.
      onRemove: (entry) => ajv.removeSchema(entry.schema),
    });
  }

  /**
   * `[]` when `values` is valid; otherwise one `{path, message}` per wrong place,
   * the path under `prefix` (`blocks[2].placeholder_values` → `blocks[2].placeholder_values.title`).
   * `schema` is only read the first time a key is seen. Messages name the
   * field by its label, in the words the web app's forms use (field-messages.ts).
   */
  validate(key: string, schema: JsonSchema, values: unknown, prefix = ''): FieldError[] {
    const validate = this.compiled(key, schema);
    return validate(values) ? [] : toFieldErrors(validate.errors ?? [], prefix, fieldMessage);
  }

  get size(): number {
    return this.entries.size;
  }

  private compiled(key: string, schema: JsonSchema): ValidateFunction {
    const hit = this.entries.get(key);
    if (hit) return hit.validate;
    const entry = { schema: schema as AnySchema, validate: this.ajv.compile(schema as AnySchema) };
    this.entries.set(key, entry);
    return entry.validate;
  }
}
