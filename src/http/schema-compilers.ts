import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { Schema } from 'ajv';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { isObject } from '../shared/is-object.js';
import { ERROR_BODY_ID, ERROR_BODY_MARK } from './schemas/common.js';
import { compileValidator } from './validation.js';

/**
 * Fastify's schema compilers, made lazy: each route's validator and serializer is
 * compiled at its first use, not at start. Compiling a few hundred schemas up front
 * was half a cold start (bench B5). `compileAll` compiles every one now, so that a
 * test proves each route's schemas compile.
 */
export function lazySchemaCompilers(named: readonly Schema[] = []) {
  const thunks: Array<() => unknown> = [];
  const lazy = <F>(compile: () => F): (() => F) => {
    let compiled: F | undefined;
    const get = () => (compiled ??= compile());
    thunks.push(get);
    return get;
  };

  const validator: FastifySchemaCompiler<Schema> = ({ schema, httpPart }) => {
    const compiled = lazy(() => compileValidator(schema, httpPart));
    // Fastify reads `errors` from the function it was given.
    const validate: ReturnType<FastifySchemaCompiler<Schema>> = (data: unknown) => {
      const inner = compiled();
      const valid = inner(data);
      validate.errors = inner.errors;
      return valid;
    };
    return validate;
  };

  // The named shapes that answers refer to by `$ref` (`Page#`), by their `$id`.
  const external = Object.fromEntries(
    named.flatMap((schema) => (isObject(schema) ? [[String(schema.$id), schema]] : [])),
  );
  const compileSerializer = SerializerSelector()(external, {});
  const serializer: FastifySerializerCompiler<unknown> = (route) => {
    // Error bodies are always sent by the error handler: plain JSON.stringify, never compiled.
    const { schema } = route;
    const isError = Number(route.httpStatus) >= 400;
    if (isError || (isObject(schema) && (schema.$comment === ERROR_BODY_MARK || schema.$ref === `${ERROR_BODY_ID}#`))) {
      return (data: unknown) => JSON.stringify(data);
    }
    // Fastify names the status of every response schema it compiles; the compiler reads only the schema.
    const compiled = lazy(() => compileSerializer({ ...route, httpStatus: route.httpStatus ?? 'default' }));
    return (data: unknown) => compiled()(data);
  };

  return { validator, serializer, compileAll: () => thunks.forEach((compile) => compile()) };
}
