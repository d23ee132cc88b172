/**
 * Last touches on the generated OpenAPI document, where a route's schema
 * cannot say it itself: names for every operation, HTML answers declared as
 * HTML, parameters with a default not marked required, and the errors any
 * operation can answer (a 500; a body too large or of another type).
 */
import { isObject } from '../shared/is-object.js';
import { OPERATIONS, type OperationDoc } from './operations.js';
import { ERROR_BODY_ID } from './schemas/common.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/**
 * `GET /api/v1/pages/{id}/blocks` → `getPagesByIdBlocks`: derived from the
 * method and the path alone, so it changes only when the route does.
 */
export function operationIdOf(method: string, path: string, prefix: string): string {
  const rest = path.startsWith(prefix) ? path.slice(prefix.length) : path;
  const words = rest
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith('{') ? `By${pascal(segment.slice(1, -1))}` : pascal(segment)));
  return method.toLowerCase() + words.join('');
}

/** The objects among an array's items or an object's values (the document is walked as plain JSON). */
const objectsIn = (value: unknown): Record<string, unknown>[] => {
  const items: unknown[] = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
  return items.filter(isObject);
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_BODY_ID}` } } },
});

/** Answered by the server itself, before or after any route's own code. */
const SERVER_ERRORS = { '500': errorResponse('An internal error; its `request_id` is in the log.') };
const BODY_ERRORS = {
  '413': errorResponse('The request body is too large.'),
  '415': errorResponse('The request body is not of a type this operation reads.'),
};

/** The JSON content of a request body or an answer, where it has one. */
const jsonOf = (holder: unknown) => {
  const content = isObject(holder) ? holder.content : undefined;
  const json = isObject(content) ? content['application/json'] : undefined;
  return isObject(json) ? json : undefined;
};

/** Its name, when to use it before what the route says of itself, and examples. */
function describe(operation: Record<string, unknown>, doc: OperationDoc | undefined) {
  if (!doc) return;
  operation.operationId = doc.id;
  operation.description =
    typeof operation.description === 'string' ? `${doc.use}\n\n${operation.description}` : doc.use;
  const body = jsonOf(operation.requestBody);
  if (body && doc.request !== undefined) body.example = doc.request;
  for (const [status, example] of Object.entries(doc.responses ?? {})) {
    const answer = jsonOf(isObject(operation.responses) ? operation.responses[status] : undefined);
    if (answer) answer.example = example;
  }
}

export function refineDocument<T extends object>(document: T, prefix: string): T {
  const paths: unknown = Reflect.get(document, 'paths');
  if (!isObject(paths)) return document;
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      describe(operation, OPERATIONS[`${method.toUpperCase()} ${path.slice(prefix.length)}`]);
      operation.operationId ??= operationIdOf(method, path, prefix);
      for (const parameter of objectsIn(operation.parameters)) {
        const schema = parameter.schema;
        if (parameter.in === 'query' && isObject(schema) && schema.default !== undefined) parameter.required = false;
      }
      if (isObject(operation.responses)) {
        const common = { ...(operation.requestBody ? BODY_ERRORS : {}), ...SERVER_ERRORS };
        for (const [status, response] of Object.entries(common)) operation.responses[status] ??= response;
      }
      for (const response of objectsIn(operation.responses)) {
        const json = isObject(response.content) ? response.content['application/json'] : undefined;
        if (isObject(json) && isObject(json.schema) && json.schema.description === 'text/html') {
          response.content = { 'text/html': { schema: { type: 'string' } } };
        }
      }
    }
  }
  return document;
}
