import { describe, expect, it } from 'vitest';
import { computeVersionBump, removedFields, type RevisionContent } from '../../../src/modules/blocks/schema/index.js';

const fields = () => [
  { name: 'title', type: 'string', label: 'Title', required: true },
  {
    name: 'author',
    type: 'object',
    fields: [
      { name: 'name', type: 'string' },
      { name: 'photo', type: 'image' },
    ],
  },
  {
    name: 'items',
    type: 'array',
    min_items: 1,
    items: {
      type: 'object',
      fields: [
        { name: 'caption', type: 'string' },
        { name: 'link', type: 'url' },
      ],
    },
  },
];
const base: RevisionContent = { template: '<h1>{{ title }}</h1>', css: 'h1{}', js: '', schema_content: fields() };
const withSchema = (schema_content: unknown[]): RevisionContent => ({ ...base, schema_content });
/** `fields()` with the definition at `index` replaced. */
const changed = (index: number, def: Record<string, unknown>) => fields().map((f, i) => (i === index ? def : f));

/** Reverses the key order of every object, at every depth. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reverseKeys(v)]),
    );
  return value;
}

describe('computeVersionBump', () => {
  it('is none for identical content (a deep copy)', () => {
    expect(computeVersionBump(base, structuredClone(base))).toBe('none');
  });

  it('is none when only the key order changes, at any depth', () => {
    const reordered = withSchema(reverseKeys(fields()) as unknown[]);
    expect(JSON.stringify(reordered.schema_content)).not.toBe(JSON.stringify(base.schema_content));
    expect(computeVersionBump(base, reordered)).toBe('none');
  });

  it.each<[string, RevisionContent]>([
    ['the template', { ...base, template: '<h2>{{ title }}</h2>' }],
    ['the css', { ...base, css: 'h1{color:red}' }],
    ['the js', { ...base, js: 'console.log(1)' }],
    ['an added field', withSchema([...fields(), { name: 'badge', type: 'string' }])],
    [
      'an added nested field',
      withSchema(
        changed(1, {
          name: 'author',
          type: 'object',
          fields: [
            { name: 'name', type: 'string' },
            { name: 'photo', type: 'image' },
            { name: 'bio', type: 'text' },
          ],
        }),
      ),
    ],
    ['a changed label', withSchema(changed(0, { name: 'title', type: 'string', label: 'Heading', required: true }))],
    [
      'a new constraint',
      withSchema(changed(0, { name: 'title', type: 'string', label: 'Title', required: true, max_length: 80 })),
    ],
    [
      'another type under the same name',
      withSchema(changed(0, { name: 'title', type: 'text', label: 'Title', required: true })),
    ],
    ['the order of the fields', withSchema([...fields()].reverse())],
  ])('is minor for %s', (_, after) => {
    expect(removedFields(base.schema_content, after.schema_content)).toEqual([]);
    expect(computeVersionBump(base, after)).toBe('minor');
  });

  it.each<[string, unknown[], string[]]>([
    ['a removed top-level field', fields().slice(1), ['title']],
    [
      'a renamed top-level field',
      changed(0, { name: 'heading', type: 'string', label: 'Title', required: true }),
      ['title'],
    ],
    [
      'a removed field of an object',
      changed(1, { name: 'author', type: 'object', fields: [{ name: 'photo', type: 'image' }] }),
      ['author.name'],
    ],
    [
      'a renamed field of an object',
      changed(1, {
        name: 'author',
        type: 'object',
        fields: [
          { name: 'full_name', type: 'string' },
          { name: 'photo', type: 'image' },
        ],
      }),
      ['author.name'],
    ],
    [
      'a removed field of array items',
      changed(2, { name: 'items', type: 'array', items: { type: 'object', fields: [{ name: 'link', type: 'url' }] } }),
      ['items[].caption'],
    ],
    [
      'array items that are no longer objects',
      changed(2, { name: 'items', type: 'array', items: { type: 'string' } }),
      ['items[].caption', 'items[].link'],
    ],
    ['a removed object, with its fields', [fields()[0], fields()[2]], ['author']],
  ])('is major for %s, naming the field', (_, schema, removed) => {
    expect(removedFields(base.schema_content, schema)).toEqual(removed);
    expect(computeVersionBump(base, withSchema(schema))).toBe('major');
  });

  it('is major when a field goes even if everything else changes too', () => {
    expect(
      computeVersionBump(base, {
        template: 'x',
        css: 'y',
        js: 'z',
        schema_content: [...fields().slice(1), { name: 'extra', type: 'string' }],
      }),
    ).toBe('major');
  });
});

describe('removedFields', () => {
  it('lists every removed field at any depth, in the order of the old schema', () => {
    const before = [
      { name: 'a', type: 'string' },
      {
        name: 'grid',
        type: 'array',
        items: {
          type: 'array',
          items: {
            type: 'object',
            fields: [
              { name: 'x', type: 'integer' },
              { name: 'y', type: 'integer' },
            ],
          },
        },
      },
      {
        name: 'o',
        type: 'object',
        fields: [
          {
            name: 'p',
            type: 'object',
            fields: [
              { name: 'q', type: 'string' },
              { name: 'r', type: 'string' },
            ],
          },
        ],
      },
      { name: 'z', type: 'string' },
    ];
    const after = [
      {
        name: 'grid',
        type: 'array',
        items: { type: 'array', items: { type: 'object', fields: [{ name: 'y', type: 'integer' }] } },
      },
      { name: 'o', type: 'object', fields: [{ name: 'p', type: 'object', fields: [{ name: 'r', type: 'string' }] }] },
    ];
    expect(removedFields(before, after)).toEqual(['a', 'grid[][].x', 'o.p.q', 'z']);
    expect(removedFields(after, before)).toEqual([]);
  });

  it('ignores entries that are not field definitions', () => {
    expect(removedFields([null, 'x', { type: 'string' }, { name: 'a', type: 'string' }], [7])).toEqual(['a']);
  });
});
