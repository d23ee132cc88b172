/**
 * The words of the field format that clients building fields need too. The
 * OpenAPI document names them (the FieldType and FieldNesting schemas, in
 * src/http/schemas/blocks.ts), and the web app's field editor reads them from
 * its generated types: it offers exactly the types and the depth accepted here.
 */

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
export type FieldType = (typeof FIELD_TYPES)[number];

/** How deep fields may nest (an object's fields, an array's items): each level is one more recursion in every check and render. */
export const MAX_FIELD_DEPTH = 6;
