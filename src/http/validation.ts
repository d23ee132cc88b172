import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const common: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false };

// Bodies are JSON and typed: `"site_id": "1"` is an error, never coerced.
const bodyAjv = addFormats(new Ajv({ ...common, coerceTypes: false }));
// Query strings and path parameters are text by nature: `?limit=20` becomes 20.
const textAjv = addFormats(new Ajv({ ...common, coerceTypes: true }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;

export { pointerToPath, toFieldErrors } from '../shared/field-errors.js';
