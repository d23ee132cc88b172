/** The field types the service accepts in `schema_content` (its blocks module lists the same). */
export const FIELD_TYPES = [
  'string',
  'text',
  'richtext',
  'number',
  'integer',
  'boolean',
  'url',
  'image',
  'color',
  'date',
  'select',
  'array',
  'object',
  'binding',
] as const;

export type FieldDefinition = Record<string, unknown> & { name?: unknown; type?: unknown };

export interface Choice {
  value: string;
  label: string;
}

/**
 * How deep fields nest (an object's fields, an array's items; the top level is
 * 1): the service refuses a 7th level at its path, so the editor offers no
 * object or array at the 6th.
 */
export const MAX_FIELD_DEPTH = 6;

/** The types a field may take at `depth`: bindings at the top level only, no nesting past the cap. */
export function typesAt(depth: number, named: boolean): string[] {
  return FIELD_TYPES.filter(
    (t) =>
      !(t === 'binding' && (depth > 1 || !named)) && !((t === 'object' || t === 'array') && depth >= MAX_FIELD_DEPTH),
  );
}

/** `field_n` with the first n from the list's length up that no field of the list has. */
export function freshName(fields: FieldDefinition[]): string {
  const taken = new Set(fields.map((f) => f.name));
  let n = fields.length + 1;
  while (taken.has(`field_${n}`)) n++;
  return `field_${n}`;
}

let nextKey = 0;
/** A React key for a row of the field editor, never given twice. */
export const newRowKey = () => `field-${++nextKey}`;
