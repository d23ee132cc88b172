/**
 * The words of the field format that the web app's field editor needs too.
 * This file imports nothing, so that the app bundles it as is and offers
 * exactly the types and the depth that the service accepts.
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
