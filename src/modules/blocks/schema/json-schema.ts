import { COLOR_PATTERN, keyAsWords } from '../../../../words/field-messages.js';
import { SAFE_IMAGE_URL, SAFE_LINK_URL } from '../../../../words/url-patterns.js';
import type { BindingDefault, FieldDefinition, ItemDefinition } from './field-vocabulary.js';

export type JsonSchema = Record<string, unknown>;

/** One live-data slot of a block (a `binding` field), as the placeholder-schema response lists it. */
export interface BindingSlot {
  name: string;
  allowed_sources: string[];
  default: BindingDefault | null;
  result_type: string | null;
}

const COLOR = COLOR_PATTERN;

/**
 * The widget that draws each field type, named in every property as
 * `x-widget`: JSON Schema alone cannot tell a one-line string from a
 * multi-line text or an HTML text, so without it a client can only draw
 * text boxes. Validators ignore the keyword (it is an annotation).
 */
export const WIDGETS = {
  string: 'input',
  text: 'textarea',
  richtext: 'richtext',
  url: 'url',
  image: 'image',
  color: 'color',
  date: 'date',
  number: 'number',
  integer: 'number',
  boolean: 'checkbox',
  select: 'select',
  array: 'list',
  object: 'group',
} as const;

/**
 * The JSON Schema of one field's value. `label` → `title`; constraints map to
 * their JSON Schema names; `binding` gives `{}` (bindings are not values).
 */
export function fieldSchema(def: FieldDefinition | ItemDefinition): JsonSchema {
  const schema: JsonSchema = {};
  if (def.label !== undefined) schema.title = def.label;
  if (def.description !== undefined) schema.description = def.description;
  switch (def.type) {
    case 'string':
    case 'text':
      schema.type = 'string';
      break;
    case 'richtext':
      // Draft-07's annotation for what the string holds: HTML, sanitized as publication sanitizes it.
      Object.assign(schema, { type: 'string', contentMediaType: 'text/html' });
      break;
    case 'url':
      // A reference, not only an absolute URI: a link may stay on the site (`/about`).
      Object.assign(schema, { type: 'string', format: 'uri-reference', pattern: SAFE_LINK_URL });
      break;
    case 'image':
      Object.assign(schema, imageSchema(def));
      break;
    case 'color':
      Object.assign(schema, { type: 'string', pattern: COLOR });
      break;
    case 'date':
      Object.assign(schema, { type: 'string', format: 'date' });
      break;
    case 'number':
    case 'integer':
      schema.type = def.type;
      if (def.min !== undefined) schema.minimum = def.min;
      if (def.max !== undefined) schema.maximum = def.max;
      break;
    case 'boolean':
      schema.type = 'boolean';
      break;
    case 'select':
      schema.enum = def.options ?? [];
      break;
    case 'array':
      schema.type = 'array';
      if (def.items) schema.items = fieldSchema(def.items);
      if (def.min_items !== undefined) schema.minItems = def.min_items;
      if (def.max_items !== undefined) schema.maxItems = def.max_items;
      break;
    case 'object':
      Object.assign(schema, objectSchema(def.fields ?? []));
      break;
    case 'binding':
      break;
  }
  if (schema.type === 'string') {
    if (def.min_length !== undefined) schema.minLength = def.min_length;
    if (def.max_length !== undefined) schema.maxLength = def.max_length;
    // A colour keeps its own pattern: a hex colour is what templates rely on. A URL's own
    // pattern (its allowed schemes) stays too, and the field's applies as well.
    if (def.pattern !== undefined && def.type !== 'color') {
      if (schema.pattern === undefined) schema.pattern = def.pattern;
      else schema.allOf = [{ pattern: def.pattern }];
    }
  }
  if (def.default !== undefined && def.type !== 'binding') schema.default = def.default;
  if (def.type !== 'binding') schema['x-widget'] = WIDGETS[def.type];
  return schema;
}

/** The longest alt text taken: a sentence or two says what an image shows; a page's words belong in its text. */
export const ALT_MAX_LENGTH = 1000;

/**
 * An image: its address alone (every value stored before alt text existed,
 * and still taken), or `{src, alt}`, the address with the words that stand
 * for the image where it cannot be seen, kept with the image as Storyblok and
 * Payload keep theirs. One schema with both types rather than `anyOf`: each
 * keyword applies to its own type (pattern to the string, properties to the
 * object), so an error is one sentence at its own path, and rjsf draws it as
 * the string it was. A reference, not only an absolute URI: uploads may be
 * served by path (`/uploads/a.png`).
 */
function imageSchema(def: FieldDefinition | ItemDefinition): JsonSchema {
  // Titled as the field is, so that a refused address is said of the field ("Photo must be…").
  const label = def.label ?? (typeof def.name === 'string' ? keyAsWords(def.name) : 'Image');
  const address: JsonSchema = { type: 'string', format: 'uri-reference', pattern: SAFE_IMAGE_URL, title: label };
  if (def.pattern !== undefined) address.allOf = [{ pattern: def.pattern }];
  return {
    type: ['string', 'object'],
    format: 'uri-reference',
    pattern: SAFE_IMAGE_URL,
    ...(def.pattern !== undefined ? { allOf: [{ pattern: def.pattern }] } : {}),
    properties: {
      src: address,
      alt: {
        type: 'string',
        maxLength: ALT_MAX_LENGTH,
        title: `Alt text of ${label}`,
        description: 'what the image shows, for people who cannot see it; empty for an image that only decorates',
      },
    },
    required: ['src'],
    description: def.description ?? 'an image: its URL, or {src, alt} with its alt text',
  };
}

/** Extra keys stay allowed at every level: templates may use values the schema does not name. */
function objectSchema(fields: FieldDefinition[]): JsonSchema {
  const values = fields.filter((f) => f.type !== 'binding');
  const required = values.filter((f) => f.required).map((f) => f.name);
  return {
    type: 'object',
    properties: Object.fromEntries(
      values.map((f) => [f.name, f.required ? requiredSchema(fieldSchema(f)) : fieldSchema(f)]),
    ),
    ...(required.length ? { required } : {}),
  };
}

/**
 * A required text is a text with something in it: `""` is refused as a missing
 * value is, as the web form refuses it (rjsf takes an emptied input for no
 * value). A `min_length` of its own stays.
 */
export function requiredSchema(schema: JsonSchema): JsonSchema {
  return schema.type === 'string' && schema.minLength === undefined ? { ...schema, minLength: 1 } : schema;
}

/**
 * The Draft-07 schema of a block's `placeholder_values`. For `markdown` blocks
 * `_markdown` is the content and the only required key; the top-level fields
 * only shape its presentation, so none is required (inside an object that is
 * sent, its own required fields still are).
 */
export function compilePlaceholderSchema(fields: FieldDefinition[], blockType: 'schema' | 'markdown'): JsonSchema {
  const body = objectSchema(fields);
  if (blockType === 'markdown') {
    (body.properties as JsonSchema)._markdown = {
      // Its label in every message about it ("Content is required."), as the web app's editor names it.
      title: 'Content',
      type: 'string',
      minLength: 1,
      description: 'GitHub Flavored Markdown: the main content of the block',
    };
    body.required = ['_markdown'];
  }
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...body };
}

/** The `binding` fields as slots, in schema order; `default` and `result_type` are null when absent. */
export function bindingSlots(fields: FieldDefinition[]): BindingSlot[] {
  return fields
    .filter((f) => f.type === 'binding')
    .map((f) => ({
      name: f.name,
      allowed_sources: f.allowed_sources ?? [],
      default: (f.default as BindingSlot['default']) ?? null,
      result_type: f.result_type ?? null,
    }));
}
