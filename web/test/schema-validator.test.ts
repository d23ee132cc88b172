import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { describe, expect, it } from 'vitest';
import { fieldMessage } from '../../words/field-messages';
import { validator } from '../src/forms/schema-validator';

/*
 * The app's validator (no eval: the CSP refuses it) against rjsf's Ajv one,
 * which the editor used before: the same errors, messages and fields for a
 * block's values in every field type the service makes a schema of, and for
 * the keywords a data source's params schema may use. Ajv still runs here,
 * in Node, as the reference, its messages worded by the service's sentences
 * (rjsf's localizer hook, as ajv-i18n would): the same words as the service.
 */
const ajvValidator = customizeValidator({}, (errors) => {
  // rjsf quotes the names it hands a localizer ('title'), for its own replacement by titles: read as sent.
  const bare = (name: unknown) => (typeof name === 'string' ? name.replace(/^'(.*)'$/, '$1') : name);
  for (const error of errors ?? [])
    error.message = fieldMessage({
      ...error,
      params: { ...error.params, missingProperty: bare(error.params.missingProperty) },
    });
});
const URL_PATTERN = '^([hH][tT][tT][pP][sS]?:|[mM][aA][iI][lL][tT][oO]:|[tT][eE][lL]:|[^:/?#]*([/?#]|$))';

/** A block's placeholder schema as json-schema.ts makes it, one field of each type. */
const block: RJSFSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    title: { title: 'Title', type: 'string', minLength: 3, maxLength: 10 },
    body: { type: 'string' },
    link: { type: 'string', format: 'uri-reference', pattern: URL_PATTERN, allOf: [{ pattern: '^/' }] },
    cover: { type: 'string', format: 'uri-reference', pattern: URL_PATTERN, description: 'an image URL' },
    tint: { type: 'string', pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$' },
    day: { type: 'string', format: 'date' },
    count: { title: 'How many', type: 'integer', minimum: 1, maximum: 50 },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    shown: { type: 'boolean' },
    size: { enum: ['s', 'm', 'l'] },
    tags: { type: 'array', items: { type: 'string', maxLength: 4 }, minItems: 1, maxItems: 2 },
    author: {
      title: 'Author',
      type: 'object',
      properties: { name: { title: 'Name', type: 'string' }, site: { type: 'string', format: 'uri-reference' } },
      required: ['name'],
    },
    links: {
      type: 'array',
      items: { type: 'object', properties: { href: { type: 'string' }, text: { type: 'string' } }, required: ['href'] },
    },
  },
  required: ['title', 'count'],
};

const cases: [string, RJSFSchema, unknown, UiSchema?][] = [
  ['valid values', block, { title: 'Hello', count: 3, tags: ['a'] }],
  ['nothing given', block, {}],
  ['a cleared input (undefined) where a value is required', block, { title: undefined, count: 2 }],
  ['too short, too big, a float for an integer', block, { title: 'Hi', count: 51.5, ratio: 2 }],
  ['too long, below the minimum', block, { title: 'Far too long a title', count: 0, ratio: -1 }],
  ['wrong types', block, { title: 12, count: 'three', shown: 'yes', tags: 'x', author: 'me' }],
  [
    'a javascript: link, a path-less link, a bad colour',
    block,
    { title: 'Hey', count: 1, link: 'javascript:x', tint: 'red' },
  ],
  ['a bad image reference and date', block, { title: 'Hey', count: 1, cover: 'a b\\c', day: '2026-02-30' }],
  ['a value not among the options', block, { title: 'Hey', count: 1, size: 'xl' }],
  ['too many and too long items', block, { title: 'Hey', count: 1, tags: ['a', 'bbbbbbb', 'c'] }],
  ['no item', block, { title: 'Hey', count: 1, tags: [] }],
  ['a nested object without its required field', block, { title: 'Hey', count: 1, author: { site: 'x y' } }],
  [
    'a list of objects, one without its required field',
    block,
    { title: 'Hey', count: 1, links: [{ href: '/' }, { text: 't' }] },
  ],
  ['a title from the UI schema', block, {}, { title: { 'ui:title': 'Headline' } }],
  [
    'a markdown block without its content',
    { type: 'object', properties: { _markdown: { type: 'string' } }, required: ['_markdown'] },
    {},
  ],
  [
    'a params schema: bounds, exclusive bounds, multiples, constants',
    {
      type: 'object',
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 50 },
        above: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 },
        step: { type: 'number', multipleOf: 5 },
        kind: { const: 'news' },
      },
    },
    { limit: 500, above: 0, step: 7, kind: 'blog' },
  ],
  [
    'a params schema: unique items, extra keys, counts of keys',
    {
      type: 'object',
      properties: {
        ids: { type: 'array', items: { type: 'integer' }, uniqueItems: true },
        pairs: { type: 'array', uniqueItems: true },
      },
      additionalProperties: false,
      minProperties: 5,
    },
    { ids: [1, 2, 1, 3], pairs: [{ a: 1 }, { a: 2 }, { a: 1 }], extra: true },
  ],
  [
    'a params schema: oneOf, anyOf, not, if/then, dependencies',
    {
      type: 'object',
      properties: {
        one: { oneOf: [{ type: 'string' }, { type: 'string', maxLength: 5 }] },
        any: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
        never: { not: { type: 'string' } },
        mode: { type: 'string' },
      },
      if: { properties: { mode: { const: 'range' } }, required: ['mode'] },
      then: { required: ['from'] },
      dependencies: { to: ['from', 'step'] },
    },
    { one: 'abc', any: 'x', never: 'text', mode: 'range', to: 3 },
  ],
  [
    'a params schema with references',
    {
      type: 'object',
      definitions: { day: { type: 'string', format: 'date' } },
      properties: { from: { $ref: '#/definitions/day' }, to: { $ref: '#/definitions/day' } },
    },
    { from: '2026-01-01', to: 'tomorrow' },
  ],
  ['a field no value may take', { type: 'object', properties: { gone: false } }, { gone: 1 }],
  ['no data at all', block, undefined],
];

const shape = ({
  errors,
  errorSchema,
}: {
  errors: { name?: string; property?: string; message?: string; stack: string }[];
  errorSchema: unknown;
}) => ({
  errors: errors.map(({ name, property, message, stack }) => ({ name, property, message, stack })),
  errorSchema,
});

describe("the app's JSON Schema validator", () => {
  it.each(cases)('reports what Ajv reports: %s', (_name, schema, data, uiSchema) => {
    const expected = shape(ajvValidator.validateFormData(data, schema, undefined, undefined, uiSchema));
    const actual = shape(
      validator.validateFormData(data as Record<string, unknown>, schema, undefined, undefined, uiSchema),
    );
    expect(sorted(actual)).toEqual(sorted(expected));
  });

  it('says what the service says, about the field by its label', () => {
    const schema: RJSFSchema = {
      type: 'object',
      properties: {
        heading: { title: 'Heading', type: 'string', maxLength: 60 },
        heading_text: { type: 'string', minLength: 1 },
        count: { title: 'How many', type: 'integer', minimum: 1 },
        tint: { title: 'Tint', type: 'string', pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$' },
      },
      required: ['heading_text'],
    };
    const { errors } = validator.validateFormData({ heading: 'x'.repeat(61), count: 0, tint: 'red' }, schema);
    expect(errors.map((e) => e.message).sort()).toEqual([
      'Heading is too long: at most 60 characters.',
      'Heading text is required.',
      'How many is too small: at least 1.',
      'Tint must be a colour such as #1e3a8a.',
    ]);
  });

  it('reports a schema it cannot use, as Ajv did, rather than throwing', () => {
    const broken: RJSFSchema = { type: 'object', properties: { a: { type: 'string', pattern: '(' } } };
    const { errors } = validator.validateFormData({ a: 'x' }, broken);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.stack).toMatch(/regular expression/i);
  });

  it('tells whether data fits a part of a schema, references resolved in the whole, as Ajv did', () => {
    const root: RJSFSchema = {
      definitions: { short: { type: 'string', maxLength: 3 } },
      oneOf: [{ $ref: '#/definitions/short' }, { type: 'integer' }],
    };
    const parts: RJSFSchema[] = [...(root.oneOf as RJSFSchema[]), { $ref: '#/definitions/short' }, { type: 'object' }];
    for (const part of parts)
      for (const data of ['ab', 'abcd', 4, { a: 1 }, undefined])
        expect([part, data, validator.isValid(part, data as never, root)]).toEqual([
          part,
          data,
          ajvValidator.isValid(part, data, root),
        ]);
  });

  it('never evaluates code: it runs with eval and Function refused', () => {
    const [evalBefore, functionBefore] = [globalThis.eval, globalThis.Function];
    const refuse = () => {
      throw new EvalError('refused by the test, as the CSP refuses it');
    };
    globalThis.eval = refuse as typeof eval;
    globalThis.Function = refuse as unknown as FunctionConstructor;
    try {
      const fresh: RJSFSchema = { type: 'object', properties: { n: { type: 'integer', maximum: 2 } }, required: ['m'] };
      const messages = validator.validateFormData({ n: 3 }, fresh).errors.map((e) => e.message);
      expect(messages.sort()).toEqual(['M is required.', 'N is too large: at most 2.']);
    } finally {
      globalThis.eval = evalBefore;
      globalThis.Function = functionBefore;
    }
  });
});

/** Ajv and cfworker visit a schema's keywords in their own orders: the same set, in one order. */
function sorted<T extends { errors: { stack: string }[]; errorSchema: unknown }>(result: T): T {
  const errorSchema = (node: unknown): unknown =>
    Array.isArray(node)
      ? [...(node as string[])].sort()
      : node && typeof node === 'object'
        ? Object.fromEntries(Object.entries(node).map(([key, value]) => [key, errorSchema(value)]))
        : node;
  return {
    ...result,
    errors: [...result.errors].sort((a, b) => a.stack.localeCompare(b.stack)),
    errorSchema: errorSchema(result.errorSchema),
  };
}
