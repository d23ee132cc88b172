import { describe, expect, it } from 'vitest';
import { paramsSchemaErrors, schemaErrors, valueErrors } from '../../../src/modules/catalog/schema-check.js';
import { slugify } from '../../../src/modules/catalog/slug.js';

describe('slugify', () => {
  it.each([
    ['Product News', 'product-news'],
    ['  --Hello,   World!-- ', 'hello-world'],
    ['Café Crème', 'cafe-creme'],
    ['Новый год', 'novyy-god'],
    ['Ёжик и щука', 'ezhik-i-schuka'],
    ['2026 plans', '2026-plans'],
    ['!!!', ''],
    ['中文', ''],
  ])('%j → %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('stays within 255 characters and never ends with a hyphen', () => {
    const slug = slugify(`${'a'.repeat(254)} b`);
    expect(slug.length).toBeLessThanOrEqual(255);
    expect(slug.endsWith('-')).toBe(false);
  });
});

describe('schemaErrors', () => {
  it('accepts a draft-07 schema, with or without $schema', () => {
    expect(schemaErrors({ type: 'array', items: { type: 'string' } }, 'schema_json')).toEqual([]);
    expect(schemaErrors({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }, 'schema_json')).toEqual(
      [],
    );
  });

  it('points at the broken keyword', () => {
    expect(
      schemaErrors({ type: 'object', properties: { n: { minimum: 'one' } } }, 'schema_json').map((e) => e.path),
    ).toEqual(['schema_json.properties.n.minimum']);
  });

  it.each([
    [{ $schema: 'https://json-schema.org/draft/2020-12/schema' }, 'schema_json.$schema'],
    [{ $schema: 'https://json-schema.org/draft-07/schema#' }, 'schema_json.$schema'],
    [{ $id: 'https://example.test/x', type: 'object' }, 'schema_json.$id'],
    [{ $ref: 'https://example.test/remote.json' }, 'schema_json'],
    [{ $ref: '#/definitions/missing' }, 'schema_json'],
    [{ type: 'string', pattern: '(' }, 'schema_json'],
  ])('refuses %j at %s without throwing', (schema, path) => {
    expect(schemaErrors(schema, 'schema_json').map((e) => e.path)).toEqual([path]);
  });

  it('can check the same schema object twice (nothing lingers in the validator)', () => {
    const schema = { definitions: { a: { type: 'string' } }, $ref: '#/definitions/a' };
    expect(schemaErrors(schema, 's')).toEqual([]);
    expect(schemaErrors(schema, 's')).toEqual([]);
    expect(valueErrors(schema, 1, 'stub')).toEqual([
      { path: 'stub', message: 'This value should be of type string.', code: 'type', expected: 'string' },
    ]);
  });
});

describe('paramsSchemaErrors', () => {
  it('wants an object of named params, whatever it says of other keys (bindings refuse them anyway)', () => {
    expect(paramsSchemaErrors({ type: 'object', additionalProperties: false, properties: {} }, 'p')).toEqual([]);
    expect(paramsSchemaErrors({ type: 'object', properties: {} }, 'p')).toEqual([]);
    expect(paramsSchemaErrors({ type: 'object', additionalProperties: true, properties: {} }, 'p')).toEqual([]);
    expect(paramsSchemaErrors({}, 'p').map((e) => e.path)).toEqual(['p.type', 'p.properties']);
  });
});
