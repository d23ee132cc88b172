import { describe, expect, it } from 'vitest';
import { validateSchemaContent } from '../../../src/modules/blocks/schema/index.js';

const known = { sources: new Set(['articles.latest', 'articles.by_rubric']), resultTypes: new Set(['article_list']) };
const check = (input: unknown) => validateSchemaContent(input, known);
/** The paths reported for `input`; [] when it is accepted. */
const pathsOf = (input: unknown) => {
  const result = check(input);
  return result.ok ? [] : result.errors.map((e) => e.path);
};
const str = (name: string, extra: Record<string, unknown> = {}) => ({ name, type: 'string', ...extra });
/** `def` at index `at` after valid fields, so the path proves the index is right. */
const at = (index: number, def: unknown) => [...Array.from({ length: index }, (_, i) => str(`ok_${i}`)), def];

describe('validateSchemaContent accepts', () => {
  it('a rich valid schema, every type and every key of the field format, nested, returning the input as is', () => {
    const input = [
      str('title', {
        label: 'Title',
        description: 'Shown on top',
        required: true,
        min_length: 1,
        max_length: 80,
        pattern: '\\S',
      }),
      { name: 'body', type: 'text' },
      { name: 'html', type: 'richtext', default: '<p>Hi</p>' },
      { name: 'ratio', type: 'number', min: 0, max: 1, default: 0.5 },
      { name: 'count', type: 'integer', min: 1, max: 10, required: true },
      { name: 'wide', type: 'boolean', default: true },
      { name: 'link', type: 'url', default: 'https://example.org/a' },
      { name: 'photo', type: 'image' },
      { name: 'accent', type: 'color', default: '#fff' },
      { name: 'day', type: 'date', default: '2024-02-29' },
      { name: 'align', type: 'select', options: ['left', 'right'], default: 'right' },
      {
        name: 'items',
        type: 'array',
        min_items: 1,
        max_items: 3,
        items: { type: 'object', fields: [str('caption', { required: true }), str('title')] },
      },
      { name: 'author', type: 'object', fields: [str('name', { required: true }), { name: 'title', type: 'text' }] },
      {
        name: 'news',
        type: 'binding',
        allowed_sources: ['articles.latest', 'articles.by_rubric'],
        result_type: 'article_list',
        default: { source: 'articles.latest', params: { limit: 3 } },
      },
    ];
    const result = check(input);
    expect(result).toEqual({ ok: true, fields: input });
    expect(result.ok && result.fields).toBe(input);
  });

  it('an empty schema, and the same name in different lists', () => {
    expect(check([])).toEqual({ ok: true, fields: [] });
    expect(pathsOf([str('title'), { name: 'author', type: 'object', fields: [str('title')] }])).toEqual([]);
  });

  it('required fields without defaults when a simple value fits, and impossible ones when nothing needs them', () => {
    expect(pathsOf([str('code', { required: true, pattern: '^[0-9]+$' })])).toEqual([]);
    expect(pathsOf([str('code', { pattern: '^[A-Z]{3}$' })])).toEqual([]);
    expect(pathsOf([str('code', { required: true, pattern: '^[A-Z]{3}$', default: 'ABC' })])).toEqual([]);
    expect(
      pathsOf([{ name: 'o', type: 'object', fields: [str('code', { required: true, pattern: '^[A-Z]{3}$' })] }]),
    ).toEqual([]);
    expect(pathsOf([{ name: 'l', type: 'array', required: true, items: str('', { pattern: '^[A-Z]{3}$' }) }])).toEqual(
      [],
    );
  });
});

describe('validateSchemaContent reports at the exact path', () => {
  it.each<[string, unknown, string[]]>([
    ['an object instead of an array', { name: 'a', type: 'string' }, ['schema_content']],
    ['null', null, ['schema_content']],
    ['an element that is not an object', at(2, 'title'), ['schema_content[2]']],
    ['an element that is an array', at(1, [str('x')]), ['schema_content[1]']],
    ['a missing name', at(0, { type: 'string' }), ['schema_content[0].name']],
    ['a blank name', at(1, str('')), ['schema_content[1].name']],
    ['a name that is not a string', at(1, { name: 7, type: 'string' }), ['schema_content[1].name']],
    ['a name with capitals', at(0, str('Title')), ['schema_content[0].name']],
    ['a name starting with a digit', at(0, str('1st')), ['schema_content[0].name']],
    ['a name with a dash', at(3, str('sub-title')), ['schema_content[3].name']],
    ['_markdown as a name', at(1, str('_markdown')), ['schema_content[1].name']],
    [
      '_markdown as a nested name',
      [{ name: 'o', type: 'object', fields: [str('_markdown')] }],
      ['schema_content[0].fields[0].name'],
    ],
    ['a duplicate name', [str('a'), str('b'), { name: 'a', type: 'text' }], ['schema_content[2].name']],
    [
      'a duplicate name in object fields',
      at(3, { name: 'o', type: 'object', fields: [str('x'), str('x')] }),
      ['schema_content[3].fields[1].name'],
    ],
    [
      'a duplicate name in array item fields',
      [{ name: 'l', type: 'array', items: { type: 'object', fields: [str('c'), str('d'), str('c')] } }],
      ['schema_content[0].items.fields[2].name'],
    ],
    [
      'a duplicate name two levels down',
      [{ name: 'o', type: 'object', fields: [{ name: 'p', type: 'object', fields: [str('y'), str('y')] }] }],
      ['schema_content[0].fields[0].fields[1].name'],
    ],
    ['an unknown type', at(2, { name: 'f', type: 'hologram' }), ['schema_content[2].type']],
    ['an unknown key', at(1, str('f', { editor_hint: 'big' })), ['schema_content[1].editor_hint']],
    ['a misspelt key', at(0, str('f', { min_lenght: 3 })), ['schema_content[0].min_lenght']],
    [
      'unknown keys in nested fields and items',
      at(1, {
        name: 'o',
        type: 'object',
        fields: [str('a', { widget: 'x' }), { name: 'l', type: 'array', items: { type: 'string', placeholder: '' } }],
      }),
      ['schema_content[1].fields[0].widget', 'schema_content[1].fields[1].items.placeholder'],
    ],
    [
      'a binding whose result_type does not exist',
      at(0, { name: 'b', type: 'binding', allowed_sources: ['articles.latest'], result_type: 'no_such_type' }),
      ['schema_content[0].result_type'],
    ],
    ['a missing type', at(1, { name: 'f' }), ['schema_content[1].type']],
    ['a type that is not a string', at(0, { name: 'f', type: ['string'] }), ['schema_content[0].type']],
    [
      'an unknown type in array items',
      [{ name: 'l', type: 'array', items: { type: 'object', fields: [{ name: 'c', type: 'nope' }] } }],
      ['schema_content[0].items.fields[0].type'],
    ],
    ['options on a non-select', at(1, str('s', { options: ['a'] })), ['schema_content[1].options']],
    ['a select without options', at(0, { name: 's', type: 'select' }), ['schema_content[0].options']],
    ['a select with empty options', at(0, { name: 's', type: 'select', options: [] }), ['schema_content[0].options']],
    [
      'a select option that is not a string',
      at(0, { name: 's', type: 'select', options: ['a', 2] }),
      ['schema_content[0].options[1]'],
    ],
    [
      'duplicate select options',
      at(0, { name: 's', type: 'select', options: ['a', 'a'] }),
      ['schema_content[0].options'],
    ],
    ['an array without items', at(1, { name: 'l', type: 'array' }), ['schema_content[1].items']],
    ['items on a non-array', at(0, str('s', { items: { type: 'string' } })), ['schema_content[0].items']],
    ['an object without fields', at(0, { name: 'o', type: 'object' }), ['schema_content[0].fields']],
    ['fields on a non-object', at(0, str('s', { fields: [] })), ['schema_content[0].fields']],
    ['min above max', at(0, { name: 'n', type: 'number', min: 5, max: 1 }), ['schema_content[0].min']],
    [
      'no integer between min and max',
      at(0, { name: 'n', type: 'integer', min: 1.2, max: 1.8 }),
      ['schema_content[0].min'],
    ],
    [
      'min_length above max_length',
      at(0, str('s', { min_length: 3, max_length: 2 })),
      ['schema_content[0].min_length'],
    ],
    [
      'min_items above max_items',
      at(0, { name: 'l', type: 'array', items: { type: 'string' }, min_items: 4, max_items: 2 }),
      ['schema_content[0].min_items'],
    ],
    ['a negative min_length', at(0, str('s', { min_length: -1 })), ['schema_content[0].min_length']],
    [
      'a fractional max_items',
      at(0, { name: 'l', type: 'array', items: { type: 'string' }, max_items: 1.5 }),
      ['schema_content[0].max_items'],
    ],
    ['a min that is not a number', at(0, { name: 'n', type: 'number', min: '1' }), ['schema_content[0].min']],
    ['an invalid regular expression', at(1, str('s', { pattern: '([a-z]' })), ['schema_content[1].pattern']],
    ['required that is not a boolean', at(0, str('s', { required: 'yes' })), ['schema_content[0].required']],
    ['a label that is not a string', at(0, str('s', { label: 5 })), ['schema_content[0].label']],
    [
      'a select default outside its options',
      at(1, { name: 's', type: 'select', options: ['a', 'b'], default: 'c' }),
      ['schema_content[1].default'],
    ],
    [
      'a string default longer than max_length',
      at(1, str('s', { max_length: 2, default: 'abc' })),
      ['schema_content[1].default'],
    ],
    [
      'a string default shorter than min_length',
      at(0, str('s', { min_length: 2, default: 'a' })),
      ['schema_content[0].default'],
    ],
    [
      'a default that breaks the pattern',
      at(0, str('s', { pattern: '^[0-9]+$', default: 'abc' })),
      ['schema_content[0].default'],
    ],
    ['a default of the wrong type', at(0, str('s', { default: 5 })), ['schema_content[0].default']],
    [
      'a number default below min',
      at(0, { name: 'n', type: 'number', min: 1, default: 0 }),
      ['schema_content[0].default'],
    ],
    [
      'a fractional integer default',
      at(0, { name: 'n', type: 'integer', default: 1.5 }),
      ['schema_content[0].default'],
    ],
    [
      'a url default that is not a URI',
      at(0, { name: 'u', type: 'url', default: 'not a url' }),
      ['schema_content[0].default'],
    ],
    [
      'a colour default that is a name',
      at(0, { name: 'c', type: 'color', default: 'red' }),
      ['schema_content[0].default'],
    ],
    [
      'a date default that is not a date',
      at(0, { name: 'd', type: 'date', default: '2024-13-01' }),
      ['schema_content[0].default'],
    ],
    [
      'an array default with too few items',
      at(0, { name: 'l', type: 'array', items: { type: 'string' }, min_items: 2, default: ['a'] }),
      ['schema_content[0].default'],
    ],
    [
      'an object default missing a required field',
      at(0, { name: 'o', type: 'object', fields: [str('n', { required: true })], default: {} }),
      ['schema_content[0].default'],
    ],
    [
      'a bad default of a nested field',
      [{ name: 'o', type: 'object', fields: [str('ok'), { name: 'n', type: 'integer', max: 3, default: 4 }] }],
      ['schema_content[0].fields[1].default'],
    ],
    [
      'a bad default of the items',
      [{ name: 'l', type: 'array', items: { type: 'select', options: ['a'], default: 'b' } }],
      ['schema_content[0].items.default'],
    ],
    [
      'a required field no simple value fits',
      at(0, str('code', { required: true, pattern: '^[A-Z]{3}$' })),
      ['schema_content[0].default'],
    ],
    [
      'a required url shorter than any URL',
      at(0, { name: 'u', type: 'url', required: true, max_length: 10 }),
      ['schema_content[0].default'],
    ],
    [
      'a required nested field of a required object',
      [{ name: 'o', type: 'object', required: true, fields: [str('code', { required: true, pattern: '^[A-Z]{3}$' })] }],
      ['schema_content[0].fields[0].default'],
    ],
    [
      'items that must exist and fit no simple value',
      [{ name: 'l', type: 'array', required: true, min_items: 1, items: str('', { pattern: '^[A-Z]{3}$' }) }],
      ['schema_content[0].items.default'],
    ],
    [
      'a binding with an unknown source',
      at(4, { name: 'b', type: 'binding', allowed_sources: ['articles.latest', 'nowhere'] }),
      ['schema_content[4].allowed_sources[1]'],
    ],
    [
      'a binding source that is not a string',
      at(0, { name: 'b', type: 'binding', allowed_sources: [3] }),
      ['schema_content[0].allowed_sources[0]'],
    ],
    ['a binding without sources', at(0, { name: 'b', type: 'binding' }), ['schema_content[0].allowed_sources']],
    [
      'a binding with empty sources',
      at(0, { name: 'b', type: 'binding', allowed_sources: [] }),
      ['schema_content[0].allowed_sources'],
    ],
    [
      'a binding result_type that is not a string',
      at(0, { name: 'b', type: 'binding', allowed_sources: ['articles.latest'], result_type: 1 }),
      ['schema_content[0].result_type'],
    ],
    [
      'a binding default outside its sources',
      at(0, {
        name: 'b',
        type: 'binding',
        allowed_sources: ['articles.latest'],
        default: { source: 'articles.by_rubric' },
      }),
      ['schema_content[0].default.source'],
    ],
    [
      'a binding default that is not {source, params}',
      at(0, { name: 'b', type: 'binding', allowed_sources: ['articles.latest'], default: 'articles.latest' }),
      ['schema_content[0].default'],
    ],
    [
      'binding default params that are not an object',
      at(0, {
        name: 'b',
        type: 'binding',
        allowed_sources: ['articles.latest'],
        default: { source: 'articles.latest', params: [] },
      }),
      ['schema_content[0].default.params'],
    ],
    [
      'a binding inside an object',
      [{ name: 'o', type: 'object', fields: [{ name: 'b', type: 'binding', allowed_sources: ['articles.latest'] }] }],
      ['schema_content[0].fields[0].type'],
    ],
    [
      'bindings as array items',
      [{ name: 'l', type: 'array', items: { type: 'binding', allowed_sources: ['articles.latest'] } }],
      ['schema_content[0].items.type'],
    ],
    [
      'allowed_sources on a non-binding',
      at(0, str('s', { allowed_sources: ['articles.latest'] })),
      ['schema_content[0].allowed_sources'],
    ],
  ])('%s', (_, input, paths) => {
    const result = check(input);
    expect(result.ok).toBe(false);
    expect(pathsOf(input)).toEqual(paths);
    if (!result.ok) for (const error of result.errors) expect(error.message.length).toBeGreaterThan(10);
  });
});

describe('validateSchemaContent, all at once', () => {
  it('reports every problem of every element, nested ones included, in order', () => {
    expect(
      pathsOf([
        str('Bad'),
        { name: 'ok', type: 'wat' },
        'nope',
        {
          name: 'o',
          type: 'object',
          fields: [str('x'), str('x'), { name: 'y', type: 'select', options: ['a'], default: 'b' }],
        },
        { name: 'b', type: 'binding', allowed_sources: ['nowhere', 'articles.latest', 'elsewhere'] },
        str('ok'),
      ]),
    ).toEqual([
      'schema_content[0].name',
      'schema_content[1].type',
      'schema_content[2]',
      'schema_content[3].fields[1].name',
      'schema_content[3].fields[2].default',
      'schema_content[4].allowed_sources[0]',
      'schema_content[4].allowed_sources[2]',
      'schema_content[5].name',
    ]);
  });

  it('reports a bad name and a bad type of the same field', () => {
    expect(pathsOf([{ name: 'A', type: 'nope' }])).toEqual(['schema_content[0].name', 'schema_content[0].type']);
  });

  it('says why a default is wrong', () => {
    const result = check([{ name: 's', type: 'select', options: ['a', 'b'], default: 'c' }]);
    expect(result.ok ? '' : result.errors[0]!.message).toMatch(/"a", "b"/);
    const tooLong = check([str('s', { max_length: 2, default: 'abc' })]);
    expect(tooLong.ok ? '' : tooLong.errors[0]!.message).toMatch(/2 characters or less/);
  });
});
