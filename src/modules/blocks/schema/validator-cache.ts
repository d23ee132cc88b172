import type { AnySchema, Ajv, ValidateFunction } from 'ajv';
import { createAjv } from '../../../shared/ajv.js';
import type { FieldError } from '../../../shared/errors.js';
import { toFieldErrors } from '../../../shared/field-errors.js';
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
  private readonly capacity: number;
  private readonly entries = new Map<string, Entry>();

  constructor(options: ValidatorCacheOptions = {}) {
    this.ajv = options.ajv ?? createAjv({ logger: false });
    this.capacity = Math.max(1, options.capacity ?? 1000);
  }

  /**
   * `[]` when `values` is valid; otherwise one `{path, message}` per wrong place,
   * the path under `prefix` (`blocks[2].placeholder_values` → `blocks[2].placeholder_values.title`).
   * `schema` is only read the first time a key is seen.
   */
  validate(key: string, schema: JsonSchema, values: unknown, prefix = ''): FieldError[] {
    const validate = this.compiled(key, schema);
    return validate(values) ? [] : toFieldErrors(validate.errors ?? [], prefix);
  }

  get size(): number {
    return this.entries.size;
  }

  private compiled(key: string, schema: JsonSchema): ValidateFunction {
    const hit = this.entries.get(key);
    if (hit) {
      // Map order is insertion order: re-inserting marks the entry as the most recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.validate;
    }
    const entry = { schema: schema as AnySchema, validate: this.ajv.compile(schema as AnySchema) };
    this.entries.set(key, entry);
    if (this.entries.size > this.capacity) this.evict();
    return entry.validate;
  }

  private evict() {
    const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry];
    this.entries.delete(oldestKey);
    // Ajv keeps every compiled schema by object; without this the cache would only look bounded.
    this.ajv.removeSchema(oldest.schema);
  }
}
