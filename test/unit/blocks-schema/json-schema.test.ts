import { Ajv } from 'ajv';
import { SAFE_IMAGE_URL, SAFE_LINK_URL } from '../../../words/url-patterns.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  bindingSlots,
  compilePlaceholderSchema,
  type FieldDefinition,
} from '../../../src/modules/blocks/schema/index.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
// Independent of the module's own Ajv: draft-07 with formats, as a client would check.
const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

const propertyWithWidget = (def: Omit<FieldDefinition, 'name'>) =>
  (compilePlaceholderSchema([{ name: 'f', ...def } as FieldDefinition], 'schema').properties as Record<string, unknown>)
    .f as Record<string, unknown>;

/** The property without its widgets (tested on their own below), at every level. */
function withoutWidgets(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutWidgets);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== 'x-widget')
      .map(([key, value]) => [key, withoutWidgets(value)]),
  );
}
const propertyOf = (def: Omit<FieldDefinition, 'name'>) => withoutWidgets(propertyWithWidget(def));

describe('compilePlaceholderSchema names the widget of each field', () => {
  it.each<[FieldDefinition['type'], string]>([
    ['string', 'input'],
    ['text', 'textarea'],
    ['richtext', 'richtext'],
    ['url', 'url'],
    ['image', 'image'],
    ['color', 'color'],
    ['date', 'date'],
    ['number', 'number'],
    ['integer', 'number'],
    ['boolean', 'checkbox'],
    ['select', 'select'],
    ['array', 'list'],
    ['object', 'group'],
  ])('%s: %s', (type, widget) => {
    expect(propertyWithWidget({ type })['x-widget']).toBe(widget);
  });

  it('inside lists and groups too, and richtext says it holds HTML', () => {
    const list = propertyWithWidget({
      type: 'array',
      items: { type: 'object', fields: [{ name: 'body', type: 'richtext' }] },
    });
    const item = list.items as { 'x-widget': string; properties: Record<string, Record<string, unknown>> };
    expect(item['x-widget']).toBe('group');
    expect(item.properties.body).toEqual({ type: 'string', contentMediaType: 'text/html', 'x-widget': 'richtext' });
  });

  it('validators take the annotation as one (a value is checked as without it)', () => {
    const schema = compilePlaceholderSchema([{ name: 'body', type: 'text', max_length: 3 }], 'schema');
    expect(ajv.validate(schema, { body: 'a\nb' })).toBe(true);
    expect(ajv.validate(schema, { body: 'a\nbcd' })).toBe(false);
  });
});

describe('compilePlaceholderSchema maps each type', () => {
  it.each<[string, Omit<FieldDefinition, 'name'>, Record<string, unknown>]>([
    [
      'string',
      { type: 'string', min_length: 2, max_length: 5, pattern: '^a' },
      { type: 'string', minLength: 2, maxLength: 5, pattern: '^a' },
    ],
    ['text', { type: 'text', max_length: 500 }, { type: 'string', maxLength: 500 }],
    ['richtext', { type: 'richtext' }, { type: 'string', contentMediaType: 'text/html' }],
    ['url', { type: 'url' }, { type: 'string', format: 'uri-reference', pattern: SAFE_LINK_URL }],
    [
      'image',
      { type: 'image' },
      {
        type: ['string', 'object'],
        format: 'uri-reference',
        pattern: SAFE_IMAGE_URL,
        properties: {
          src: { type: 'string', format: 'uri-reference', pattern: SAFE_IMAGE_URL, title: 'F' },
          alt: expect.objectContaining({ type: 'string', maxLength: 1000, title: 'Alt text of F' }),
        },
        required: ['src'],
        description: 'an image: its URL, or {src, alt} with its alt text',
      },
    ],
    ['color', { type: 'color' }, { type: 'string', pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$' }],
    [
      'color with a pattern of its own',
      { type: 'color', pattern: '^#f' },
      { type: 'string', pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$' },
    ],
    ['date', { type: 'date' }, { type: 'string', format: 'date' }],
    ['number', { type: 'number', min: 0.5, max: 2 }, { type: 'number', minimum: 0.5, maximum: 2 }],
    ['integer', { type: 'integer', min: 1 }, { type: 'integer', minimum: 1 }],
    ['boolean', { type: 'boolean', default: true }, { type: 'boolean', default: true }],
    ['select', { type: 'select', options: ['a', 'b'] }, { enum: ['a', 'b'] }],
    [
      'array',
      { type: 'array', items: { type: 'string', max_length: 3 }, min_items: 1, max_items: 4 },
      { type: 'array', items: { type: 'string', maxLength: 3 }, minItems: 1, maxItems: 4 },
    ],
    [
      'object',
      {
        type: 'object',
        fields: [
          { name: 'a', type: 'string', required: true },
          { name: 'b', type: 'integer' },
        ],
      },
      // A required text is not empty.
      { type: 'object', properties: { a: { type: 'string', minLength: 1 }, b: { type: 'integer' } }, required: ['a'] },
    ],
    [
      'label, description and default',
      { type: 'string', label: 'Title', description: 'On top', default: 'Hi' },
      { type: 'string', title: 'Title', description: 'On top', default: 'Hi' },
    ],
    [
      'constraints that do not apply to the type',
      { type: 'integer', min_length: 2, pattern: 'x' },
      { type: 'integer' },
    ],
  ])('%s', (_, def, expected) => {
    expect(propertyOf(def)).toEqual(expected);
  });
});

describe('compilePlaceholderSchema, the whole schema', () => {
  const fields: FieldDefinition[] = [
    { name: 'title', type: 'string', required: true },
    { name: 'subtitle', type: 'string' },
    { name: 'news', type: 'binding', required: true, allowed_sources: ['articles.latest'] },
    { name: 'author', type: 'object', fields: [{ name: 'name', type: 'string', required: true }] },
    {
      name: 'items',
      type: 'array',
      items: { type: 'object', fields: [{ name: 'caption', type: 'string', required: true }] },
    },
  ];

  it('is a draft-07 object schema whose required lists the required non-binding fields', () => {
    const schema = compilePlaceholderSchema(fields, 'schema');
    expect(schema.$schema).toBe(DRAFT_07);
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['title']);
    expect(Object.keys(schema.properties as object)).toEqual(['title', 'subtitle', 'author', 'items']);
  });

  it('has no required key when nothing is required, and is a plain object schema for no fields', () => {
    expect(compilePlaceholderSchema([{ name: 'a', type: 'string' }], 'schema')).not.toHaveProperty('required');
    expect(compilePlaceholderSchema([], 'schema')).toEqual({ $schema: DRAFT_07, type: 'object', properties: {} });
  });

  it('never forbids extra keys, at any level', () => {
    const schema = compilePlaceholderSchema(fields, 'schema');
    expect(JSON.stringify(schema)).not.toContain('additionalProperties');
    const validate = ajv.compile(schema);
    const values = { title: 't', extra: 1, author: { name: 'n', extra: 2 }, items: [{ caption: 'c', extra: 3 }] };
    expect(validate(values), JSON.stringify(validate.errors)).toBe(true);
  });

  it('validates what it says', () => {
    const validate = ajv.compile(compilePlaceholderSchema(fields, 'schema'));
    expect(validate({ subtitle: 's' })).toBe(false);
    expect(validate({ title: 't', author: {} })).toBe(false);
    expect(validate({ title: 't', items: [{ caption: 'c' }, {}] })).toBe(false);
    expect(validate({ title: 't', author: { name: 'n' }, items: [{ caption: 'c' }] })).toBe(true);
  });

  it.each<[Omit<FieldDefinition, 'name'>, unknown, unknown]>([
    [{ type: 'url' }, 'https://example.com/a', 'example dot com'],
    [{ type: 'url' }, '/about', 'javascript:alert(1)'],
    [{ type: 'image' }, '/uploads/a.png', 'data:image/svg+xml,<svg/>'],
    [{ type: 'image' }, { src: '/uploads/a.png', alt: 'A cat' }, { src: 'data:image/svg+xml,<svg/>', alt: 'x' }],
    [{ type: 'image' }, { src: '/a.png' }, { alt: 'no address' }],
    [{ type: 'color' }, '#a0B1c2', '#12345'],
    [{ type: 'date' }, '2024-02-29', '2023-02-29'],
    [{ type: 'select', options: ['a', 'b'] }, 'b', 'c'],
    [{ type: 'integer', min: 1, max: 3 }, 3, 4],
    [{ type: 'integer' }, 2, 2.5],
    [{ type: 'number', max: 1 }, 0.5, 1.5],
    [{ type: 'string', pattern: '^[a-z]+$' }, 'abc', 'ABC'],
    [{ type: 'array', items: { type: 'integer' }, max_items: 2 }, [1, 2], [1, 2, 3]],
  ])('%j accepts %j and refuses %j', (def, good, bad) => {
    const validate = ajv.compile(compilePlaceholderSchema([{ name: 'f', ...def } as FieldDefinition], 'schema'));
    expect(validate({ f: good })).toBe(true);
    expect(validate({ f: bad })).toBe(false);
  });

  it('makes _markdown the only required key of a markdown block', () => {
    const schema = compilePlaceholderSchema(fields, 'markdown');
    expect(schema.required).toEqual(['_markdown']);
    expect((schema.properties as Record<string, unknown>)._markdown).toMatchObject({ type: 'string' });
    expect(Object.keys(schema.properties as object).sort()).toEqual([
      '_markdown',
      'author',
      'items',
      'subtitle',
      'title',
    ]);
    const validate = ajv.compile(schema);
    expect(validate({ _markdown: '# Hi' })).toBe(true);
    expect(validate({ title: 't' })).toBe(false);
    expect(validate({ _markdown: 5 })).toBe(false);
  });
});

describe('bindingSlots', () => {
  it('lists the binding fields in order, with null for a missing default or result type', () => {
    const slots = bindingSlots([
      {
        name: 'news',
        type: 'binding',
        allowed_sources: ['articles.latest'],
        result_type: 'article_list',
        default: { source: 'articles.latest', params: { limit: 3 } },
      },
      { name: 'title', type: 'string' },
      { name: 'more', type: 'binding', allowed_sources: ['articles.by_rubric', 'articles.latest'] },
    ]);
    expect(slots).toEqual([
      {
        name: 'news',
        allowed_sources: ['articles.latest'],
        default: { source: 'articles.latest', params: { limit: 3 } },
        result_type: 'article_list',
      },
      { name: 'more', allowed_sources: ['articles.by_rubric', 'articles.latest'], default: null, result_type: null },
    ]);
  });

  it('is empty for a static block', () => {
    expect(bindingSlots([{ name: 'title', type: 'string' }])).toEqual([]);
  });
});
