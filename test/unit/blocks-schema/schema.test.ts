import { describe, expect, it } from 'vitest';
import { createAjv } from '../../../src/shared/ajv.js';
import {
  FIELD_TYPES,
  bindingSlots,
  buildExample,
  compilePlaceholderSchema,
  computeVersionBump,
  removedFields,
  validateSchemaContent,
  type FieldDefinition,
} from '../../../src/modules/blocks/schema/index.js';

const sources = new Set(['articles.latest', 'articles.by_rubric']);
const check = (fields: unknown) => validateSchemaContent(fields, sources);
const pathsOf = (fields: unknown) => {
  const result = check(fields);
  return result.ok ? [] : result.errors.map((e) => e.path);
};

/** One definition of each type, with constraints where the type has them. */
const definitions: Record<string, Omit<FieldDefinition, 'name' | 'required'>> = {
  string: { type: 'string', min_length: 3, max_length: 10 },
  text: { type: 'text' },
  richtext: { type: 'richtext' },
  number: { type: 'number', min: 1.5, max: 9 },
  integer: { type: 'integer', min: -5, max: -1 },
  boolean: { type: 'boolean' },
  url: { type: 'url' },
  image: { type: 'image' },
  color: { type: 'color' },
  date: { type: 'date' },
  select: { type: 'select', options: ['left', 'right'] },
  array: { type: 'array', min_items: 2, items: { type: 'object', fields: [{ name: 'caption', type: 'string', required: true, min_length: 2 }] } },
  object: { type: 'object', fields: [{ name: 'name', type: 'string', required: true }, { name: 'age', type: 'integer', min: 18 }] },
};

describe('the example of a placeholder schema', () => {
  const ajv = createAjv();
  it('covers every value type', () => {
    expect(Object.keys(definitions).sort()).toEqual(FIELD_TYPES.filter((t) => t !== 'binding').sort());
  });

  for (const [type, def] of Object.entries(definitions)) {
    for (const required of [true, false]) {
      it(`is valid for a ${required ? 'required' : 'optional'} ${type} field without a default`, () => {
        const fields = [{ name: 'f', required, ...def }] as FieldDefinition[];
        expect(check(fields).ok).toBe(true);
        const schema = compilePlaceholderSchema(fields, 'schema');
        const example = buildExample(fields, 'schema');
        expect(ajv.validate({ ...schema, $schema: undefined }, example), JSON.stringify(ajv.errors)).toBe(true);
        expect('f' in example).toBe(required);
      });
    }
  }

  it('uses the defaults when given, and stays valid for markdown blocks', () => {
    const fields: FieldDefinition[] = [
      { name: 'title', type: 'string', required: true, default: 'Hello' },
      { name: 'align', type: 'select', options: ['l', 'r'], default: 'r' },
      { name: 'feed', type: 'binding', allowed_sources: ['articles.latest'] },
    ];
    expect(buildExample(fields, 'schema')).toEqual({ title: 'Hello', align: 'r' });
    const markdown = buildExample(fields, 'markdown');
    expect(typeof markdown._markdown).toBe('string');
    expect(ajv.validate({ ...compilePlaceholderSchema(fields, 'markdown'), $schema: undefined }, markdown)).toBe(true);
  });
});

describe('compilePlaceholderSchema', () => {
  it('maps constraints, keeps extra keys allowed and leaves bindings out', () => {
    const schema = compilePlaceholderSchema(
      [
        { name: 'title', type: 'string', label: 'Title', required: true, max_length: 5, pattern: '^[A-Z]' },
        { name: 'feed', type: 'binding', allowed_sources: ['articles.latest'], result_type: 'article_list' },
      ],
      'schema',
    );
    expect(schema).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { title: { title: 'Title', type: 'string', maxLength: 5, pattern: '^[A-Z]' } },
      required: ['title'],
    });
  });

  it('makes _markdown the only required key of a markdown block', () => {
    const schema = compilePlaceholderSchema([{ name: 'width', type: 'integer', required: true }], 'markdown');
    expect(schema.required).toEqual(['_markdown']);
    expect(Object.keys(schema.properties as object).sort()).toEqual(['_markdown', 'width']);
  });

  it('lists binding slots with their defaults', () => {
    const slots = bindingSlots([
      { name: 'news', type: 'binding', allowed_sources: ['articles.latest'], default: { source: 'articles.latest', params: { limit: 3 } } },
      { name: 'title', type: 'string' },
    ]);
    expect(slots).toEqual([{ name: 'news', allowed_sources: ['articles.latest'], default: { source: 'articles.latest', params: { limit: 3 } }, result_type: null }]);
  });
});

describe('validateSchemaContent', () => {
  it('accepts a rich valid schema', () => {
    expect(check([{ name: 'a', type: 'string' }, ...Object.entries(definitions).map(([name, d]) => ({ name: `x_${name}`, ...d }))]).ok).toBe(true);
  });

  it.each([
    ['not an array', { name: 'a' }, ['schema_content']],
    ['an element that is not an object', [{ name: 'a', type: 'string' }, 'b'], ['schema_content[1]']],
    ['an unknown type', [{ name: 'a', type: 'hologram' }], ['schema_content[0].type']],
    ['a bad name', [{ name: 'Title', type: 'string' }], ['schema_content[0].name']],
    ['a missing name', [{ type: 'string' }], ['schema_content[0].name']],
    ['_markdown', [{ name: '_markdown', type: 'string' }], ['schema_content[0].name']],
    ['a duplicate name', [{ name: 'a', type: 'string' }, { name: 'a', type: 'text' }], ['schema_content[1].name']],
    ['a nested duplicate name', [{ name: 'o', type: 'object', fields: [{ name: 'x', type: 'string' }, { name: 'x', type: 'string' }] }], ['schema_content[0].fields[1].name']],
    ['a select default outside its options', [{ name: 's', type: 'select', options: ['a', 'b'], default: 'c' }], ['schema_content[0].default']],
    ['a string default too long', [{ name: 's', type: 'string', max_length: 2, default: 'abc' }], ['schema_content[0].default']],
    ['options on a non-select', [{ name: 's', type: 'string', options: ['a'] }], ['schema_content[0].options']],
    ['a select without options', [{ name: 's', type: 'select' }], ['schema_content[0].options']],
    ['min above max', [{ name: 'n', type: 'number', min: 5, max: 1 }], ['schema_content[0].min']],
    ['an invalid pattern', [{ name: 's', type: 'string', pattern: '(' }], ['schema_content[0].pattern']],
    ['an array without items', [{ name: 'l', type: 'array' }], ['schema_content[0].items']],
    ['a bad type deep in array items', [{ name: 'l', type: 'array', items: { type: 'object', fields: [{ name: 'c', type: 'nope' }] } }], ['schema_content[0].items.fields[0].type']],
    ['a binding with an unknown source', [{ name: 'b', type: 'binding', allowed_sources: ['articles.latest', 'nowhere'] }], ['schema_content[0].allowed_sources[1]']],
    ['a binding without sources', [{ name: 'b', type: 'binding', allowed_sources: [] }], ['schema_content[0].allowed_sources']],
    ['a binding default outside its sources', [{ name: 'b', type: 'binding', allowed_sources: ['articles.latest'], default: { source: 'articles.by_rubric' } }], ['schema_content[0].default.source']],
    ['a nested binding', [{ name: 'o', type: 'object', fields: [{ name: 'b', type: 'binding', allowed_sources: ['articles.latest'] }] }], ['schema_content[0].fields[0].type']],
  ])('reports %s at its path', (_, input, paths) => {
    expect(pathsOf(input)).toEqual(paths);
  });

  it('reports every problem at once', () => {
    expect(pathsOf([{ name: 'Bad', type: 'string' }, { name: 'ok', type: 'wat' }])).toEqual(['schema_content[0].name', 'schema_content[1].type']);
  });
});

describe('version bumps', () => {
  const base = {
    template: 't',
    css: '',
    js: '',
    schema_content: [
      { name: 'title', type: 'string', label: 'Title' },
      { name: 'author', type: 'object', fields: [{ name: 'name', type: 'string' }] },
      { name: 'items', type: 'array', items: { type: 'object', fields: [{ name: 'caption', type: 'string' }] } },
    ],
  };
  const withSchema = (schema_content: unknown[]) => ({ ...base, schema_content });

  it('is none for identical content, whatever the key order', () => {
    const reordered = withSchema(base.schema_content.map((f) => Object.fromEntries(Object.entries(f).reverse())));
    expect(computeVersionBump(base, reordered)).toBe('none');
  });

  it('is minor for template, css, js, an added field or a changed label', () => {
    expect(computeVersionBump(base, { ...base, template: 'u' })).toBe('minor');
    expect(computeVersionBump(base, { ...base, css: 'a{}' })).toBe('minor');
    expect(computeVersionBump(base, { ...base, js: ';' })).toBe('minor');
    expect(computeVersionBump(base, withSchema([...base.schema_content, { name: 'badge', type: 'string' }]))).toBe('minor');
    expect(computeVersionBump(base, withSchema([{ ...base.schema_content[0], label: 'Heading' }, ...base.schema_content.slice(1)]))).toBe('minor');
  });

  it('is major for a removed or renamed field at any depth, naming it', () => {
    const renamed = withSchema([{ name: 'heading', type: 'string' }, ...base.schema_content.slice(1)]);
    expect(computeVersionBump(base, renamed)).toBe('major');
    expect(removedFields(base.schema_content, renamed.schema_content)).toEqual(['title']);
    const nested = withSchema([base.schema_content[0], { name: 'author', type: 'object', fields: [] }, { name: 'items', type: 'array', items: { type: 'object', fields: [] } }]);
    expect(computeVersionBump(base, nested)).toBe('major');
    expect(removedFields(base.schema_content, nested.schema_content)).toEqual(['author.name', 'items[].caption']);
  });
});
