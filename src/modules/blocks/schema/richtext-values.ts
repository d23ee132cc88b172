import type { FieldDefinition, ItemDefinition } from './field-vocabulary.js';

type Values = Record<string, unknown>;
/** The service's one sanitizer of rich text (src/rendering/sanitize.ts, given by the composition root). */
export type Sanitize = (html: string) => string;

const isValues = (value: unknown): value is Values =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The values with every `richtext` value (at any depth: in groups, in list
 * items) sanitized by publication's own policy, so that a stored value
 * never holds a script or an event handler, whoever sent it. The renderer
 * sanitizes again on output (older values, restored versions); this makes
 * what the API answers and what editors load the HTML the page will show.
 * Values that are not strings are left to validation; the same object is
 * answered when nothing changed.
 */
export function sanitizeRichTextValues(fields: FieldDefinition[], values: Values, sanitize: Sanitize): Values {
  let out: Values | undefined;
  for (const field of fields) {
    if (!Object.hasOwn(values, field.name)) continue;
    const before = values[field.name];
    const after = sanitizeValue(field, before, sanitize);
    if (after !== before) (out ??= { ...values })[field.name] = after;
  }
  return out ?? values;
}

function sanitizeValue(def: FieldDefinition | ItemDefinition, value: unknown, sanitize: Sanitize): unknown {
  switch (def.type) {
    case 'richtext':
      return typeof value === 'string' ? sanitize(value) : value;
    case 'object':
      return isValues(value) ? sanitizeRichTextValues(def.fields ?? [], value, sanitize) : value;
    case 'array': {
      const items = def.items;
      if (!items || !Array.isArray(value)) return value;
      const next = value.map((item) => sanitizeValue(items, item, sanitize));
      return next.some((item, i) => item !== value[i]) ? next : value;
    }
    default:
      return value;
  }
}
