import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import { PAGE_DEFAULT_LIMIT, PAGE_MAX_LIMIT } from '../../shared/pagination.js';

/** A string that must contain something besides white space. */
export const NonBlank = (options: { maxLength?: number; description?: string } = {}) =>
  Type.String({ minLength: 1, pattern: '\\S', ...options });

/** `T | null` as a JSON-Schema type array (one error per place, unlike anyOf). */
export const Nullable = <T extends TSchema>(schema: T): TUnsafe<Static<T> | null> =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [(schema as { type?: string }).type as string, 'null'] });

export const Id = Type.Integer({ minimum: 1 });
export const IdParams = Type.Object({ id: Id });
export const Timestamp = Type.String({ format: 'date-time' });

export const PageQueryProperties = {
  limit: Type.Integer({
    minimum: 1,
    maximum: PAGE_MAX_LIMIT,
    default: PAGE_DEFAULT_LIMIT,
    description: `1..${PAGE_MAX_LIMIT}; out of range is an error`,
  }),
  offset: Type.Integer({ minimum: 0, default: 0 }),
};
export const PageQuery = Type.Object(PageQueryProperties);

export const Paged = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() });

export const FieldErrorSchema = Type.Object({ path: Type.String(), message: Type.String() });

/** Marks the error body: documented on every route, never given a compiled serializer (see server.ts). */
export const ERROR_BODY_MARK = 'pageblocks:error-body';

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'What went wrong, in words.' }),
    errors: Type.Optional(
      Type.Array(FieldErrorSchema, { description: 'Where it went wrong: fix exactly these paths.' }),
    ),
  },
  { additionalProperties: true, $comment: ERROR_BODY_MARK },
);

/** Response entries for the error codes a route can answer. */
export const errorResponses = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, ErrorBody]));

export const NoContent = Type.Null({ description: 'No content' });
