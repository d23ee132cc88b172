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
