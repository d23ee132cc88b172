import { describe, expect, it, vi } from 'vitest';
import { createAjv } from '../../../src/shared/ajv.js';
import {
  ValidatorCache,
  compilePlaceholderSchema,
  type FieldDefinition,
} from '../../../src/modules/blocks/schema/index.js';

const fields: FieldDefinition[] = [
  { name: 'title', type: 'string', required: true, max_length: 5 },
  { name: 'count', type: 'integer', min: 1 },
  { name: 'link', type: 'url' },
  {
    name: 'items',
    type: 'array',
    items: { type: 'object', fields: [{ name: 'caption', type: 'string', required: true }] },
  },
];
const schema = compilePlaceholderSchema(fields, 'schema');
const PREFIX = 'blocks[2].placeholder_values';

describe('ValidatorCache.validate', () => {
  const cache = new ValidatorCache();

  it('returns [] for valid values, extra keys included', () => {
    expect(
      cache.validate(
        '1:schema',
        schema,
        { title: 'Hi', count: 2, items: [{ caption: 'c', more: 1 }], extra: true },
        PREFIX,
      ),
    ).toEqual([]);
  });

  it('reports every error at its full path under the prefix', () => {
    const errors = cache.validate(
      '1:schema',
      schema,
      { count: 0, link: 'javascript:nope', items: [{ caption: 'c' }, { caption: 5 }, {}] },
      PREFIX,
    );
    expect(errors.map((e) => e.path)).toEqual([
      `${PREFIX}.title`,
      `${PREFIX}.count`,
      `${PREFIX}.link`,
      `${PREFIX}.items[1].caption`,
      `${PREFIX}.items[2].caption`,
    ]);
    // About the field, by its label (here its name in words: it has none).
    expect(errors[0]!.message).toBe('Title is required.');
  });

  it('does not coerce: a number in a string is a type error', () => {
    expect(cache.validate('1:schema', schema, { title: 'Hi', count: '2' }, PREFIX)).toEqual([
      {
        path: `${PREFIX}.count`,
        message: 'Count must be a whole number.',
        code: 'type',
        expected: 'integer',
        hint: 'send 2 as a JSON number, without quotes',
      },
    ]);
  });

  it('uses the bare paths without a prefix, and the prefix itself for the root', () => {
    expect(cache.validate('1:schema', schema, { title: 'Too long' }).map((e) => e.path)).toEqual(['title']);
    expect(cache.validate('1:schema', schema, 'text', PREFIX).map((e) => e.path)).toEqual([PREFIX]);
  });

  it('does not fill defaults into the values', () => {
    const withDefault = compilePlaceholderSchema(
      [{ name: 'tone', type: 'select', options: ['a', 'b'], default: 'a' }],
      'schema',
    );
    const values = {};
    expect(cache.validate('2:schema', withDefault, values, PREFIX)).toEqual([]);
    expect(values).toEqual({});
  });
});

describe('ValidatorCache, the cache', () => {
  const spied = () => {
    const ajv = createAjv();
    return { ajv, compile: vi.spyOn(ajv, 'compile'), removeSchema: vi.spyOn(ajv, 'removeSchema') };
  };
  const schemaOf = (n: number) =>
    compilePlaceholderSchema([{ name: `f${n}`, type: 'integer', required: true }], 'schema');

  it('compiles once per key, and keeps the schema it first saw for a key', () => {
    const { ajv, compile } = spied();
    const cache = new ValidatorCache({ ajv });
    expect(cache.validate('7:schema', schemaOf(1), { f1: 1 })).toEqual([]);
    expect(cache.validate('7:schema', schemaOf(1), { f1: 'x' })).toHaveLength(1);
    expect(cache.validate('7:schema', schemaOf(2), {})).toEqual([
      { path: 'f1', message: 'F1 is required.', code: 'required' },
    ]);
    expect(compile).toHaveBeenCalledTimes(1);
    expect(cache.validate('7:markdown', schemaOf(2), {})).toEqual([
      { path: 'f2', message: 'F2 is required.', code: 'required' },
    ]);
    expect(compile).toHaveBeenCalledTimes(2);
  });

  it('is bounded: the least recently used goes, and Ajv forgets it too', () => {
    const { ajv, compile, removeSchema } = spied();
    const cache = new ValidatorCache({ ajv, capacity: 2 });
    const [a, b, c] = [schemaOf(1), schemaOf(2), schemaOf(3)];
    cache.validate('a', a, {});
    cache.validate('b', b, {});
    cache.validate('a', a, {}); // a is now more recent than b
    cache.validate('c', c, {});
    expect(cache.size).toBe(2);
    expect(removeSchema).toHaveBeenCalledTimes(1);
    expect(removeSchema).toHaveBeenCalledWith(b);
    expect(compile).toHaveBeenCalledTimes(3);
    cache.validate('a', a, {});
    expect(compile).toHaveBeenCalledTimes(3);
    cache.validate('b', b, {});
    expect(compile).toHaveBeenCalledTimes(4);
    expect(removeSchema).toHaveBeenLastCalledWith(c);
  });

  it('keeps 1000 schemas by default', () => {
    const { ajv, removeSchema } = spied();
    const cache = new ValidatorCache({ ajv });
    for (let n = 0; n < 1001; n++) cache.validate(String(n), schemaOf(n), {});
    expect(cache.size).toBe(1000);
    expect(removeSchema).toHaveBeenCalledTimes(1);
  });
});
