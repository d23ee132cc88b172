import type { ErrorObject } from 'ajv';
import type { ErrorCode, FieldError, FieldErrorDetail } from './errors.js';
import { meantFor, nearMiss } from './near-miss.js';
import { isObject } from './is-object.js';
import { SAFE_IMAGE_URL, SAFE_LINK_URL } from '../../words/url-patterns.js';

/**
 * What is read of a validation error: Ajv's `ErrorObject`, or the same error as
 * Fastify hands it back (`error.validation`, typed without Ajv's verbose fields).
 */
export type ValidationError = Pick<ErrorObject, 'keyword' | 'instancePath' | 'message'> & {
  params: Record<string, unknown>;
  parentSchema?: unknown;
  data?: unknown;
};

/** `/blocks/0/placeholder_values/title` → `blocks[0].placeholder_values.title`; '' → `root`. */
export function pointerToPath(pointer: string, prefix = ''): string {
  let path = prefix;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path ? `.${segment}` : segment;
  }
  return path || 'root';
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'int',
  number: 'number',
  string: 'string',
  boolean: 'bool',
  object: 'object',
  array: 'array',
  null: 'null',
};

/** Patterns of our own whose meaning a person should read instead of the expression. */
const PATTERN_MESSAGES: Record<string, string> = {
  '\\S': 'This value should not be blank.',
  [SAFE_IMAGE_URL]: 'Only http(s) and relative URLs are allowed here.',
  [SAFE_LINK_URL]: 'Only http(s), mailto:, tel: and relative URLs are allowed here.',
};

function message(error: ValidationError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return 'This field is required.';
    case 'type': {
      const types = String(p.type)
        .split(',')
        .map((t) => TYPE_NAMES[t] ?? t);
      return `This value should be of type ${types.join(' or ')}.`;
    }
    case 'minLength':
      return p.limit === 1
        ? 'This value should not be blank.'
        : `This value is too short. It should have ${String(p.limit)} characters or more.`;
    case 'maxLength':
      return `This value is too long. It should have ${String(p.limit)} characters or less.`;
    case 'pattern':
      return PATTERN_MESSAGES[String(p.pattern)] ?? `This value should match the pattern ${String(p.pattern)}.`;
    case 'minimum':
      return `This value should be greater than or equal to ${String(p.limit)}.`;
    case 'maximum':
      return `This value should be less than or equal to ${String(p.limit)}.`;
    case 'exclusiveMinimum':
      return `This value should be greater than ${String(p.limit)}.`;
    case 'exclusiveMaximum':
      return `This value should be less than ${String(p.limit)}.`;
    case 'enum':
      return `The value you selected is not a valid choice. Allowed: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'const':
      return `This value should be ${JSON.stringify(p.allowedValue)}.`;
    case 'format':
      return `This value is not a valid ${String(p.format)}.`;
    case 'minItems':
      return `This collection should contain ${String(p.limit)} element(s) or more.`;
    case 'maxItems':
      return `This collection should contain ${String(p.limit)} element(s) or less.`;
    case 'uniqueItems':
      return 'This collection should contain only unique elements.';
    case 'additionalProperties':
      return 'This field is not expected.';
    default:
      return error.message
        ? `${error.message[0]!.toUpperCase()}${error.message.slice(1)}.`
        : 'This value is not valid.';
  }
}

const LIMIT_CODES: Record<string, ErrorCode> = {
  maxLength: 'too_long',
  minLength: 'too_short',
  maximum: 'too_large',
  exclusiveMaximum: 'too_large',
  minimum: 'too_small',
  exclusiveMinimum: 'too_small',
  maxItems: 'too_many',
  minItems: 'too_few',
  maxProperties: 'too_many',
  minProperties: 'too_few',
};

/** The keys a schema object declares (Ajv gives the schema with `verbose: true`). */
// Sorted: a schema stored as jsonb on PostgreSQL comes back with its keys in another order than on SQLite.
const declaredKeys = (schema: unknown): string[] =>
  isObject(schema) && isObject(schema.properties) ? Object.keys(schema.properties).sort() : [];

const backticks = (words: readonly unknown[]) => words.map((w) => `\`${String(w)}\``).join(', ');

/** A string of digits where a number belongs: the usual slip of an id read from a URL. */
function typeHint(data: unknown, expected: string): string | undefined {
  if ((expected === 'integer' || expected === 'number') && typeof data === 'string' && /^-?\d+(\.\d+)?$/.test(data))
    return `send ${data} as a JSON number, without quotes`;
  if (expected === 'array' && (typeof data === 'number' || typeof data === 'string'))
    return `send a list: [${JSON.stringify(data)}]`;
  return undefined;
}

/** `code`, `expected` and a near-miss `hint` for one Ajv error. */
function detail(error: ValidationError): FieldErrorDetail {
  const p = error.params;
  switch (error.keyword) {
    case 'required': {
      const missing = String(p.missingProperty);
      const declared = declaredKeys(error.parentSchema);
      const unexpected = isObject(error.data) ? Object.keys(error.data).filter((k) => !declared.includes(k)) : [];
      const meant = meantFor(missing, unexpected);
      return {
        code: 'required',
        ...(meant && { hint: `\`${meant}\` is not a field here: did you mean \`${missing}\`?` }),
      };
    }
    case 'additionalProperties': {
      const allowed = declaredKeys(error.parentSchema);
      const near = nearMiss(String(p.additionalProperty), allowed);
      return {
        code: 'unknown_key',
        expected: allowed,
        hint: near
          ? `did you mean \`${near}\`?`
          : allowed.length
            ? `allowed keys: ${backticks(allowed)}`
            : 'no keys are allowed here',
      };
    }
    case 'type': {
      const types = String(p.type).split(',');
      const hint = typeHint(error.data, types[0]!);
      return { code: 'type', expected: types.length === 1 ? types[0] : types, ...(hint && { hint }) };
    }
    case 'enum': {
      const allowed = p.allowedValues as unknown[];
      const near =
        typeof error.data === 'string'
          ? nearMiss(
              error.data,
              allowed.filter((v): v is string => typeof v === 'string'),
            )
          : undefined;
      return { code: 'enum', expected: allowed, ...(near && { hint: `did you mean \`${near}\`?` }) };
    }
    case 'const':
      return { code: 'enum', expected: [p.allowedValue] };
    case 'minLength':
      return p.limit === 1 ? { code: 'blank' } : { code: 'too_short', expected: p.limit };
    case 'pattern':
      return p.pattern === '\\S' ? { code: 'blank' } : { code: 'pattern', expected: p.pattern };
    case 'format':
      return { code: 'format', expected: p.format };
    case 'uniqueItems':
      return { code: 'not_unique' };
    default: {
      const code = LIMIT_CODES[error.keyword];
      return code ? { code, expected: p.limit } : { code: 'invalid' };
    }
  }
}

/** Where an error points: the missing or unexpected key itself, not its parent object. */
function pointerOf(error: ValidationError): string {
  const p = error.params;
  if (error.keyword === 'required') return `${error.instancePath}/${String(p.missingProperty)}`;
  if (error.keyword === 'additionalProperties') return `${error.instancePath}/${String(p.additionalProperty)}`;
  return error.instancePath;
}

/**
 * Ajv errors → `{path, message, code, expected?, hint?}` at the exact place, one
 * entry per place: the first (a wrong type comes before the enum it then also
 * fails). Union branches that failed are noise once a more specific error names
 * the spot. Hints need Ajv's `verbose` option (the schema and data of each error).
 * `messageOf` words each one (default: about "this value", for request bodies;
 * a block's values use the sentences about their field's label, field-messages.ts).
 */
export function toFieldErrors(
  errors: readonly ValidationError[],
  prefix = '',
  messageOf: (error: ValidationError) => string = message,
): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    const path = pointerToPath(pointerOf(error), prefix);
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ path, message: messageOf(error), ...detail(error) });
  }
  return out;
}
