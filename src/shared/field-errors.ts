import type { ErrorObject } from 'ajv';
import type { FieldError } from './errors.js';

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

function message(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
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
        : `This value is too short. It should have ${p.limit} characters or more.`;
    case 'maxLength':
      return `This value is too long. It should have ${p.limit} characters or less.`;
    case 'pattern':
      return p.pattern === '\\S'
        ? 'This value should not be blank.'
        : `This value should match the pattern ${p.pattern}.`;
    case 'minimum':
      return `This value should be greater than or equal to ${p.limit}.`;
    case 'maximum':
      return `This value should be less than or equal to ${p.limit}.`;
    case 'exclusiveMinimum':
      return `This value should be greater than ${p.limit}.`;
    case 'exclusiveMaximum':
      return `This value should be less than ${p.limit}.`;
    case 'enum':
      return `The value you selected is not a valid choice. Allowed: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'const':
      return `This value should be ${JSON.stringify(p.allowedValue)}.`;
    case 'format':
      return `This value is not a valid ${p.format}.`;
    case 'minItems':
      return `This collection should contain ${p.limit} element(s) or more.`;
    case 'maxItems':
      return `This collection should contain ${p.limit} element(s) or less.`;
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

/** Where an error points: the missing or unexpected key itself, not its parent object. */
function pointerOf(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${error.instancePath}/${String(p.missingProperty)}`;
  if (error.keyword === 'additionalProperties') return `${error.instancePath}/${String(p.additionalProperty)}`;
  return error.instancePath;
}

/**
 * Ajv errors → `{path, message}` at the exact place, one entry per place: the
 * first (a wrong type comes before the enum it then also fails). Union branches
 * that failed are noise once a more specific error names the spot.
 */
export function toFieldErrors(errors: readonly ErrorObject[], prefix = ''): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    const path = pointerToPath(pointerOf(error), prefix);
    if (seen.has(path)) continue;
    seen.add(path);
    out.push({ path, message: message(error) });
  }
  return out;
}
