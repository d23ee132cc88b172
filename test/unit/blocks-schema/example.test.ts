import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  FIELD_TYPES,
  MARKDOWN_SAMPLE,
  buildExample,
  compilePlaceholderSchema,
  validateSchemaContent,
  type FieldDefinition,
} from '../../../src/modules/blocks/schema/index.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
const sources = { sources: new Set(['articles.latest']), resultTypes: new Set(['article_list']) };

type Def = Omit<FieldDefinition, 'name'>;
interface Variant {
  def: Def;
  /** A valid default different from the simplest value. */
  default: unknown;
  /** What the example holds for a required field without a default. */
  simplest: unknown;
}

/** Each value type, bare and with constraints (the ones the simplest value has to respect). */
const variants: Record<string, Variant[]> = {
  string: [
    // A required text is not empty: its schema says `minLength: 1`.
    { def: { type: 'string' }, default: 'Hello', simplest: 'x' },
    { def: { type: 'string', min_length: 3, max_length: 10 }, default: 'Hello', simplest: 'xxx' },
    { def: { type: 'string', pattern: '^[A-Z]' }, default: 'Hello', simplest: 'A' },
    { def: { type: 'string', pattern: '^[0-9]+$', min_length: 2 }, default: '42', simplest: '00' },
  ],
  text: [{ def: { type: 'text', min_length: 1 }, default: 'Some text', simplest: 'x' }],
  richtext: [{ def: { type: 'richtext', max_length: 100 }, default: '<p>Hi</p>', simplest: 'x' }],
  number: [
    { def: { type: 'number' }, default: 2.5, simplest: 0 },
    { def: { type: 'number', min: 1.5, max: 9 }, default: 2.5, simplest: 1.5 },
    { def: { type: 'number', max: -3 }, default: -4, simplest: -3 },
  ],
  integer: [
    { def: { type: 'integer' }, default: 7, simplest: 0 },
    { def: { type: 'integer', min: 2.5, max: 5 }, default: 4, simplest: 3 },
    { def: { type: 'integer', max: -1.5 }, default: -5, simplest: -2 },
    { def: { type: 'integer', min: -5, max: -1 }, default: -2, simplest: -5 },
  ],
  boolean: [{ def: { type: 'boolean' }, default: true, simplest: false }],
  url: [
    { def: { type: 'url' }, default: 'https://example.org/x', simplest: 'https://example.com' },
    { def: { type: 'url', min_length: 20 }, default: 'https://example.org/xx', simplest: 'https://example.com/' },
    {
      def: { type: 'url', min_length: 25 },
      default: 'https://example.org/xxxxxxxx',
      simplest: 'https://example.com/xxxxx',
    },
  ],
  image: [
    { def: { type: 'image' }, default: '/uploads/a.png', simplest: 'https://example.com/image.png' },
    {
      def: { type: 'image', min_length: 32 },
      default: 'https://example.org/images/a.png',
      simplest: 'https://example.com/xxximage.png',
    },
  ],
  color: [{ def: { type: 'color' }, default: '#fff', simplest: '#000000' }],
  date: [{ def: { type: 'date' }, default: '2025-12-31', simplest: '2024-01-01' }],
  select: [{ def: { type: 'select', options: ['left', 'right'] }, default: 'right', simplest: 'left' }],
  array: [
    { def: { type: 'array', items: { type: 'string' } }, default: ['a'], simplest: [] },
    {
      def: { type: 'array', min_items: 2, max_items: 3, items: { type: 'integer', min: 1 } },
      default: [5, 6],
      simplest: [1, 1],
    },
    {
      def: {
        type: 'array',
        min_items: 1,
        items: {
          type: 'object',
          fields: [
            { name: 'caption', type: 'string', required: true, min_length: 2 },
            { name: 'alt', type: 'text' },
          ],
        },
      },
      default: [{ caption: 'Hi' }],
      simplest: [{ caption: 'xx' }],
    },
    {
      def: { type: 'array', min_items: 2, items: { type: 'array', min_items: 1, items: { type: 'color' } } },
      default: [['#fff'], ['#000']],
      simplest: [['#000000'], ['#000000']],
    },
    {
      def: { type: 'array', min_items: 2, items: { type: 'select', options: ['a', 'b'], default: 'b' } },
      default: ['a', 'a'],
      simplest: ['b', 'b'],
    },
  ],
  object: [
    {
      def: {
        type: 'object',
        fields: [
          { name: 'name', type: 'string', required: true },
          { name: 'age', type: 'integer', min: 18 },
          { name: 'role', type: 'select', options: ['x'], default: 'x' },
        ],
      },
      default: { name: 'Ann', age: 30 },
      simplest: { name: 'x', role: 'x' },
    },
    {
      def: {
        type: 'object',
        fields: [
          {
            name: 'inner',
            type: 'object',
            required: true,
            fields: [
              { name: 'on', type: 'boolean', required: true },
              { name: 'at', type: 'date' },
            ],
          },
        ],
      },
      default: { inner: { on: true } },
      simplest: { inner: { on: false } },
    },
  ],
};

const toValidate = (fields: FieldDefinition[], blockType: 'schema' | 'markdown') => {
  const validate = ajv.compile(compilePlaceholderSchema(fields, blockType));
  const example = buildExample(fields, blockType);
  return { example, valid: validate(example), errors: JSON.stringify(validate.errors) };
};

describe('buildExample is valid against the compiled schema', () => {
  it('for every value type', () => {
    expect(Object.keys(variants).sort()).toEqual(FIELD_TYPES.filter((t) => t !== 'binding').sort());
  });

  for (const [type, list] of Object.entries(variants)) {
    list.forEach((variant, n) => {
      for (const required of [true, false]) {
        for (const withDefault of [false, true]) {
          const title = `${type} #${n} (${JSON.stringify(variant.def).slice(0, 60)}), ${required ? 'required' : 'optional'}, ${withDefault ? 'with' : 'without'} a default`;
          it(title, () => {
            const field = {
              name: 'f',
              required,
              ...variant.def,
              ...(withDefault ? { default: variant.default } : {}),
            } as FieldDefinition;
            const fields = [field, { name: 'other', type: 'string' } as FieldDefinition];
            expect(validateSchemaContent(fields, sources)).toMatchObject({ ok: true });
            const { example, valid, errors } = toValidate(fields, 'schema');
            expect(valid, errors).toBe(true);
            // Present when required or defaulted; optional fields without a default stay out.
            if (withDefault) expect(example).toEqual({ f: variant.default });
            else if (required) expect(example).toEqual({ f: variant.simplest });
            else expect(example).toEqual({});

            const markdown = toValidate(fields, 'markdown');
            expect(markdown.valid, markdown.errors).toBe(true);
            expect(markdown.example).toEqual({
              ...(withDefault ? { f: variant.default } : {}),
              _markdown: MARKDOWN_SAMPLE,
            });
          });
        }
      }
    });
  }
});

describe('buildExample', () => {
  it('leaves bindings out', () => {
    const fields: FieldDefinition[] = [
      {
        name: 'news',
        type: 'binding',
        required: true,
        allowed_sources: ['articles.latest'],
        default: { source: 'articles.latest', params: {} },
      },
      { name: 'title', type: 'string', required: true, default: 'Hi' },
    ];
    expect(buildExample(fields, 'schema')).toEqual({ title: 'Hi' });
  });

  it('gives markdown blocks a short Markdown sample', () => {
    expect(MARKDOWN_SAMPLE).toMatch(/^# \S/);
    expect(buildExample([], 'markdown')).toEqual({ _markdown: MARKDOWN_SAMPLE });
    expect(buildExample([], 'schema')).toEqual({});
  });

  it('stays valid for a block that combines everything', () => {
    const fields = Object.entries(variants).flatMap(([type, list]) =>
      list.map((v, n) => ({ name: `${type}_${n}`, required: n % 2 === 0, ...v.def }) as FieldDefinition),
    );
    expect(validateSchemaContent(fields, sources).ok).toBe(true);
    for (const blockType of ['schema', 'markdown'] as const) {
      const { valid, errors } = toValidate(fields, blockType);
      expect(valid, errors).toBe(true);
    }
  });
});
