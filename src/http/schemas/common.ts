import { Type, type Static, type TNumberOptions, type TSchema, type TUnsafe } from 'typebox';
import { ERROR_CODES } from '../../shared/errors.js';
import { PAGE_DEFAULT_LIMIT, PAGE_MAX_LIMIT } from '../../shared/pagination.js';

/** A string that must contain something besides white space. */
export const NonBlank = (options: { maxLength?: number; description?: string } = {}) =>
  Type.String({ minLength: 1, pattern: '\\S', ...options });

/**
 * The shapes named in the OpenAPI documents' `components.schemas`, by name.
 * Filled as the schema modules load (before any server is built); the server
 * registers each once (`addSchema`) and hands them to its serializers.
 */
const components = new Map<string, TSchema>();

const pagedOf = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), total: Int(), limit: Int(), offset: Int() });
export const namedSchemas = (): TSchema[] => [...components.values()];

/**
 * A response shape with a name: routes refer to it by `$ref`, so that the
 * document shows it once under `components.schemas` and a generated client
 * gets a named type. Its example is the shape's one example: the document
 * gives it to every answer of this shape, and to its list's as the one item
 * (`listItem` where a list shows its items otherwise). For answers only:
 * request schemas stay inline, where the validators read them (see `namedBody`).
 */
export function named<T extends TSchema>(
  name: string,
  schema: T,
  options: { example: Static<T>; list?: boolean; listItem?: Static<T> },
) {
  if (components.has(name)) throw new Error(`Two schemas named ${name}`);
  components.set(name, { ...schema, $id: name, examples: [options.example] });
  const ref = Type.Unsafe<Static<T>>({ $ref: `${name}#` });
  // Routes are registered after the server has read the names: a list is named with its item.
  if (options.list) {
    const example = { data: [options.listItem ?? options.example], total: 1, limit: PAGE_DEFAULT_LIMIT, offset: 0 };
    components.set(`${name}List`, { ...pagedOf(ref), $id: `${name}List`, examples: [example] });
  }
  return ref;
}

/** The names of the request bodies made by `namedBody`. */
export const BODY_NAMES = new Set<string>();

/**
 * A request body with a name and an example. Both are annotations: the route
 * validates the schema inline as before, and only the document moves it to
 * `components.schemas` under its `title` (see openapi-refine.ts), so that a
 * generated client gets a named type for what it sends too.
 */
export function namedBody<T extends TSchema>(name: string, schema: T, example: Static<T>): T {
  if (BODY_NAMES.has(name) || components.has(name)) throw new Error(`Two schemas named ${name}`);
  BODY_NAMES.add(name);
  return { ...schema, title: name, examples: [example] };
}

/** An example for a shape without a name (an answer of one operation), where it is declared. */
export const withExample = <T extends TSchema>(schema: T, example: Static<T>): T => ({
  ...schema,
  examples: [example],
});

/** The name of a shape made by `named`, if it is one. */
const nameOf = (schema: TSchema): string | undefined => {
  const ref: unknown = Reflect.get(schema, '$ref');
  return typeof ref === 'string' && ref.endsWith('#') ? ref.slice(0, -1) : undefined;
};

/**
 * `T | null` as a JSON-Schema type array (one error per place, unlike anyOf).
 * An `enum` takes `null` too, or null would still fail the enum. A named
 * shape is `anyOf` its reference and null.
 */
export const Nullable = <T extends TSchema>(schema: T): TUnsafe<Static<T> | null> => {
  if (nameOf(schema)) return Type.Unsafe<Static<T> | null>({ anyOf: [schema, { type: 'null' }] });
  const found: unknown = Reflect.get(schema, 'enum');
  const values: unknown[] | undefined = Array.isArray(found) ? found : undefined;
  return Type.Unsafe<Static<T> | null>({
    ...schema,
    type: [Reflect.get(schema, 'type'), 'null'],
    ...(values && { enum: [...values, null] }),
  });
};

/** A free-form JSON object (`additionalProperties: true`), typed as what the services take. */
export const JsonObject = (options: { description?: string } = {}) =>
  Type.Unsafe<Record<string, unknown>>(Type.Object({}, { additionalProperties: true, ...options }));

/** A string out of a fixed list, typed as their union (one `enum` keyword: one error, unlike a union of literals). */
export const StringEnum = <const T extends readonly string[]>(values: T, options: { description?: string } = {}) =>
  Type.Unsafe<T[number]>(Type.String({ ...options, enum: [...values] }));

/**
 * The integers both databases store (PostgreSQL `integer`, the type of every id
 * and count column). A request integer is always bounded: a larger one is a 400
 * at its path instead of an overflow, a 500, in the database.
 */
export const INT_MAX = 2_147_483_647;
export const Int = (options: TNumberOptions = {}) =>
  Type.Integer({ minimum: -INT_MAX - 1, maximum: INT_MAX, ...options });

export const Id = Int({ minimum: 1 });
export const IdParams = Type.Object({ id: Id });
export const Timestamp = Type.String({ format: 'date-time' });

export const PageQueryProperties = {
  limit: Int({
    minimum: 1,
    maximum: PAGE_MAX_LIMIT,
    default: PAGE_DEFAULT_LIMIT,
    description: `1..${PAGE_MAX_LIMIT}; out of range is an error`,
  }),
  offset: Int({ minimum: 0, default: 0 }),
};
export const PageQuery = Type.Object(PageQueryProperties);

export const DryRunProperties = {
  dry_run: Type.Optional(
    Type.Integer({
      enum: [0, 1],
      description: '1: check everything and answer exactly as the real call would (status, body), but write nothing',
    }),
  ),
};
export const DryRunQuery = Type.Object(DryRunProperties);

/** A page of a list: the list of a shape named with `list: true` is named too (`SiteList`). */
export const Paged = <T extends TSchema>(item: T) => {
  const name = nameOf(item);
  return name && components.has(`${name}List`)
    ? Type.Unsafe<Static<ReturnType<typeof pagedOf<T>>>>({ $ref: `${name}List#` })
    : pagedOf(item);
};

const FIELD_ERROR_EXAMPLE = {
  path: 'name',
  message: 'must be a string',
  code: 'type' as const,
  expected: 'string',
};

export const FieldErrorSchema = named(
  'FieldError',
  Type.Object({
    path: Type.String({
      description:
        'A dot-path in the sent body (`blocks[0].placeholder_values.title`), a query or path parameter, or `root`; in a ' +
        "page preview `blocks[i]`, the instance that cannot be rendered, and in a block preview `template`, the block's " +
        'own.',
    }),
    message: Type.String({ description: 'What is wrong, in words.' }),
    code: Type.String({
      enum: [...ERROR_CODES],
      description:
        'What is wrong, as a stable machine word: `required`, `type`, `enum`, `unknown_key`, `not_allowed`, `blank`, ' +
        '`too_long`/`too_short`, `too_large`/`too_small` (numbers), `too_many`/`too_few` (lists), `pattern`, `format`, ' +
        '`not_unique`, `conflict`, `not_found`, `forbidden`, `invalid`.',
    }),
    expected: Type.Optional(
      Type.Unknown({
        description:
          'Where it helps: the expected type (`integer`), the allowed values or keys (an array), or the limit (a number or the pattern).',
      }),
    ),
    hint: Type.Optional(
      Type.String({ description: 'A near miss and its fix, e.g. "`title` is not a field here: did you mean `name`?"' }),
    ),
    line: Type.Optional(
      Type.Integer({ minimum: 1, description: 'In a text such as a template: the 1-based line where it goes wrong.' }),
    ),
    column: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'In a text such as a template: the 1-based column where it goes wrong.',
      }),
    ),
  }),
  { example: FIELD_ERROR_EXAMPLE },
);

/** Marks the error body: documented on every route, never given a compiled serializer (see server.ts). */
export const ERROR_BODY_MARK = 'pageblocks:error-body';

/** The id under which the error body is registered once (`addSchema`) and referred to by every route. */
export const ERROR_BODY_ID = 'Error';

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'What went wrong, in words.' }),
    errors: Type.Optional(
      Type.Array(FieldErrorSchema, {
        description: 'Where it went wrong: fix exactly these paths and send the request again.',
      }),
    ),
  },
  {
    $id: ERROR_BODY_ID,
    title: 'Error',
    description:
      'Every 4xx and 5xx answer. Some add fields of their own (a blocked major upgrade: `current_pin`, ' +
      '`library_version`, `removed_fields`; a 500: `request_id`).',
    additionalProperties: true,
    $comment: ERROR_BODY_MARK,
    examples: [{ error: 'The request is not valid: see errors[].', errors: [FIELD_ERROR_EXAMPLE] }],
  },
);

/** A reference to the error body, which the server registers once. */
export const ErrorBodyRef = Type.Unsafe<{ error: string }>({ $ref: `${ERROR_BODY_ID}#` });

/** Response entries for the error codes a route can answer. */
export const errorResponses = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, ErrorBodyRef]));

export const NoContent = Type.Null({ description: 'No content' });

const VERSION_CONFLICT_MESSAGE =
  'Page 3 is at version 8, not the one this write expected: someone else changed it. Read it again and apply your change on top.';

/**
 * A 412: the write expected a version (`If-Match`, MCP `expected_version`)
 * the object is no longer at, and wrote nothing. Its `ETag` header names the
 * current version too.
 */
export const VersionConflictSchema = named(
  'VersionConflict',
  Type.Object(
    {
      error: Type.String({ enum: ['version_conflict'], description: 'a code, not a sentence' }),
      message: Type.String(),
      current_version: Int({ minimum: 1, description: 'the version the object is at now (its ETag)' }),
      errors: Type.Array(FieldErrorSchema, { description: 'one entry, at `If-Match`' }),
    },
    { additionalProperties: true },
  ),
  {
    example: {
      error: 'version_conflict',
      message: VERSION_CONFLICT_MESSAGE,
      current_version: 8,
      errors: [
        { path: 'If-Match', message: 'The object is at version 8 (W/"8").', code: 'conflict', expected: 'W/"8"' },
      ],
    },
  },
);

/** The 412 of a write that honours `If-Match`: the error body, with the version the object is at. */
export const versionConflictResponse = {
  412: Type.Union([VersionConflictSchema, ErrorBodyRef], {
    description: '`version_conflict`: the object is no longer at the version If-Match named; nothing was written',
  }),
};
