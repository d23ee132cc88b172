import type { FieldDefinition, ItemDefinition } from './field-definitions.js';

/**
 * A minimal valid `placeholder_values`: defaults where given, otherwise, for
 * required fields, the simplest valid value (contract.md section 6).
 */
export function buildExample(fields: FieldDefinition[], blockType: 'schema' | 'markdown'): Record<string, unknown> {
  const example = objectExample(fields, blockType === 'markdown');
  if (blockType === 'markdown') example._markdown = '# Title\n\nSome **text**.';
  return example;
}

function objectExample(fields: FieldDefinition[], optional: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.type === 'binding') continue;
    if (field.default !== undefined) out[field.name] = field.default;
    else if (field.required && !optional) out[field.name] = simplest(field);
  }
  return out;
}

function simplest(def: FieldDefinition | ItemDefinition): unknown {
  if (def.default !== undefined) return def.default;
  switch (def.type) {
    case 'number':
    case 'integer': {
      const low = def.min ?? (def.max !== undefined && def.max < 0 ? def.max : 0);
      return def.type === 'integer' ? Math.ceil(low) : low;
    }
    case 'boolean':
      return false;
    case 'select':
      return def.options?.[0] ?? '';
    case 'url':
      return 'https://example.com';
    case 'image':
      return 'https://example.com/image.png';
    case 'color':
      return '#000000';
    case 'date':
      return '2024-01-01';
    case 'array':
      return Array.from({ length: def.min_items ?? 0 }, () => (def.items ? simplest(def.items) : null));
    case 'object':
      return objectExample(def.fields ?? [], false);
    default:
      // A pattern can demand anything: the shortest string is the best guess when none is given.
      return 'x'.repeat(def.min_length ?? (def.pattern ? 1 : 0));
  }
}
