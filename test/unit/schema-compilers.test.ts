import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from '../../src/http/schema-compilers.js';
import { ERROR_BODY_MARK } from '../../src/http/schemas/common.js';

const route = (schema: object, httpPart?: string) => ({ schema, httpPart, method: 'POST', url: '/x' }) as never;

describe('lazy schema compilers', () => {
  it('compile a validator at its first use, and pass its errors on to Fastify', () => {
    const compilers = lazySchemaCompilers();
    const validate = compilers.validator(
      route({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, 'body'),
    ) as unknown as ((d: unknown) => boolean) & { errors?: Array<{ instancePath: string }> };
    expect(validate({ n: 1 })).toBe(true);
    expect(validate({ n: 'x' })).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe('/n');
    expect(validate({ n: 2 })).toBe(true);
    expect(validate.errors).toBeNull();
  });

  it('coerce query text to numbers, but never a body', () => {
    const compilers = lazySchemaCompilers();
    const schema = { type: 'object', properties: { limit: { type: 'integer' } } };
    expect(compilers.validator(route(schema, 'querystring'))({ limit: '20' })).toBe(true);
    expect(compilers.validator(route(schema, 'body'))({ limit: '20' })).toBe(false);
  });

  it('defer a broken schema to its first use, and compileAll finds it', () => {
    const compilers = lazySchemaCompilers();
    const validate = compilers.validator(route({ type: 'no-such-type' }, 'body'));
    expect(() => compilers.compileAll()).toThrow();
    expect(() => validate({})).toThrow();
  });

  it('serialize by the response schema, and error bodies with plain JSON', () => {
    const compilers = lazySchemaCompilers();
    const serialize = compilers.serializer(route({ type: 'object', properties: { id: { type: 'integer' } } }));
    expect(serialize({ id: 1, secret: 'not in the schema' })).toBe('{"id":1}');
    const errorBody = compilers.serializer(route({ type: 'object', $comment: ERROR_BODY_MARK }));
    expect(errorBody({ error: 'x', extra: 1 })).toBe('{"error":"x","extra":1}');
  });
});
