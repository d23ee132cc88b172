/**
 * The words of the field format: its types and the shape of a definition.
 * Every part of the schema module reads them, and this file imports nothing
 * (no import cycle through it). Clients building fields need them too: the
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

/** The `default` of a `binding` field: the data source and params used when a page gives no binding. */
export interface BindingDefault {
  source: string;
  params?: Record<string, unknown>;
}

/** The definition of each item of an `array` field: a field without a name. */
export interface ItemDefinition {
  name?: string;
  type: FieldType;
  label?: string;
  description?: string;
  /** Default false. */
  required?: boolean;
  /** A value valid for the field itself; for `binding`, a {@link BindingDefault}. */
  default?: unknown;
  /** `select` only. */
  options?: string[];
  min?: number;
  max?: number;
  min_length?: number;
  max_length?: number;
  pattern?: string;
  /** `array` only. */
  items?: ItemDefinition;
  min_items?: number;
  max_items?: number;
  /** `object` only. */
  fields?: FieldDefinition[];
  /** `binding` only: data source ids. */
  allowed_sources?: string[];
  /** `binding` only: the data result type id. */
  result_type?: string;
  /** Read as unknown until checked: a definition from a request may hold anything (other keys are refused). */
  [key: string]: unknown;
}

/** One field of a block. */
export interface FieldDefinition extends ItemDefinition {
  name: string;
}
