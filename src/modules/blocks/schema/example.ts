import type { FieldDefinition, ItemDefinition } from './field-vocabulary.js';
import { linearRegExp } from '../../../shared/ajv.js';

export const MARKDOWN_SAMPLE = '# Title\n\nSome **text**.';

/**
 * A minimal valid `placeholder_values`: defaults where given, otherwise, for
 * required fields, the simplest valid value. In a
 * `markdown` block the fields are optional, so only their defaults appear.
 * `validateSchemaContent` refuses a required field whose simplest value would
 * break its own constraints, so the result always validates.
 */
export function buildExample(fields: FieldDefinition[], blockType: 'schema' | 'markdown'): Record<string, unknown> {
  const example = objectExample(fields, blockType === 'markdown');
  if (blockType === 'markdown') example._markdown = MARKDOWN_SAMPLE;
  return example;
}

function objectExample(fields: FieldDefinition[], optional: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.type === 'binding') continue;
    if (field.default !== undefined) out[field.name] = field.default;
    else if (field.required && !optional) out[field.name] = simplestValue(field);
  }
  return out;
}

/** The value an editor would least have to think about: the default, else the simplest one the constraints allow. */
export function simplestValue(def: FieldDefinition | ItemDefinition): unknown {
  if (def.default !== undefined) return def.default;
  // A required text has something in it (its schema says `minLength: 1`).
  const length = def.min_length ?? (def.required ? 1 : 0);
  switch (def.type) {
    case 'number':
      return def.min ?? (def.max !== undefined && def.max < 0 ? def.max : 0);
    case 'integer':
      // Bounds may be fractional: the nearest integer inside them.
      return def.min !== undefined
        ? Math.ceil(def.min)
        : def.max !== undefined && def.max < 0
          ? Math.floor(def.max)
          : 0;
    case 'boolean':
      return false;
    case 'select':
      return def.options?.[0] ?? '';
    case 'url':
      return length > 19 ? `https://example.com/${'x'.repeat(length - 20)}` : 'https://example.com';
    case 'image':
      return `https://example.com/${'x'.repeat(Math.max(0, length - 29))}image.png`;
    case 'color':
      return '#000000';
    case 'date':
      return '2024-01-01';
    case 'array':
      return Array.from({ length: def.min_items ?? 0 }, () => (def.items ? simplestValue(def.items) : null));
    case 'object':
      return objectExample(def.fields ?? [], false);
    default:
      return simplestString(length, def.max_length, def.pattern);
  }
}

const FILLERS = ['x', 'a', 'A', '0', 'X', '1'];

/** `min_length` times 'x'; with a pattern, the first of a few one-character fillers that it accepts. */
function simplestString(length: number, maxLength: number | undefined, pattern: string | undefined): string {
  const plain = 'x'.repeat(length);
  if (pattern === undefined) return plain;
  let regexp: { test: (text: string) => boolean };
  try {
    regexp = linearRegExp(pattern); // the engine Ajv uses, so a match here is a match there
  } catch {
    return plain;
  }
  const lengths = [...new Set([length, Math.max(length, 1)])].filter((n) => maxLength === undefined || n <= maxLength);
  for (const n of lengths) {
    for (const filler of FILLERS) {
      const candidate = filler.repeat(n);
      if (regexp.test(candidate)) return candidate;
    }
  }
  return plain;
}
