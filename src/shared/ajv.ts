import { Ajv, type Options } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import addFormatsModule from 'ajv-formats';
import { RE2JS } from 're2js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * A user's pattern compiled for RE2's linear-time engine: no backtracking, so
 * no input can make it run for long (`^(a+)+$` against `aaa…!` is a catastrophe
 * for JavaScript's own engine). Throws for what RE2 cannot express
 * (backreferences, lookaround).
 */
export function linearRegExp(pattern: string): { test: (text: string) => boolean; toString: () => string } {
  const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
  // Ajv keys compiled patterns by `toString()`: without it, every pattern of a schema would be the first one.
  return { test: (text) => compiled.test(text), toString: () => `/${pattern}/` };
}

/** Ajv's `pattern` and `patternProperties` on RE2 (the flags Ajv passes, `u`, are RE2's default: it reads Unicode). */
const regExp: RegExpEngine = Object.assign((pattern: string) => linearRegExp(pattern), { code: 'linearRegExp' });

/** An Ajv for user-made schemas (block fields, data sources): every error, no coercion, Draft-07 formats, linear-time patterns. */
export function createAjv(options: Options = {}): Ajv {
  return addFormats(
    // verbose: each error carries its schema and data, which the near-miss hints read.
    new Ajv({
      allErrors: true,
      strict: false,
      coerceTypes: false,
      verbose: true,
      ...options,
      code: { ...options.code, regExp },
    }),
  );
}
