import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { pointerToPath, toFieldErrors } from '../../src/http/validation.js';

describe('pointerToPath', () => {
  it.each([
    ['', 'root'],
    ['/site_id', 'site_id'],
    ['/blocks/0/placeholder_values/title', 'blocks[0].placeholder_values.title'],
    ['/blocks/2/placeholder_values/items/0/title', 'blocks[2].placeholder_values.items[0].title'],
    ['/a~1b/c~0d', 'a/b.c~d'],
  ])('%s → %s', (pointer, path) => expect(pointerToPath(pointer)).toBe(path));

  it('prefixes a path', () => {
    expect(pointerToPath('/title', 'blocks[1].placeholder_values')).toBe('blocks[1].placeholder_values.title');
    expect(pointerToPath('', 'blocks[1].placeholder_values')).toBe('blocks[1].placeholder_values');
  });
});

describe('toFieldErrors', () => {
  const ajv = new Ajv({ allErrors: true });
  const validate = ajv.compile({
    type: 'object',
    required: ['name', 'site_id'],
    properties: {
      name: { type: 'string', minLength: 1 },
      site_id: { type: 'integer' },
      items: {
        type: 'array',
        items: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
      },
    },
  });

  it('names the missing key itself and every bad place', () => {
    validate({ site_id: '3', items: [{ title: 'ok' }, {}] });
    expect(toFieldErrors(validate.errors!)).toEqual([
      { path: 'name', message: 'This field is required.', code: 'required' },
      { path: 'site_id', message: 'This value should be of type int.', code: 'type', expected: 'integer' },
      { path: 'items[1].title', message: 'This field is required.', code: 'required' },
    ]);
  });

  it('says blank for an empty required string', () => {
    validate({ name: '', site_id: 1 });
    expect(toFieldErrors(validate.errors!)).toEqual([
      { path: 'name', message: 'This value should not be blank.', code: 'blank' },
    ]);
  });
});
