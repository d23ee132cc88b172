/**
 * Last touches on the generated OpenAPI document, where a route's schema
 * cannot say it itself: names for every operation, HTML answers declared as
 * HTML, and parameters with a default not marked required.
 */
import { isObject } from '../shared/is-object.js';

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

export function refineDocument<T extends object>(document: T, prefix: string): T {
  const paths: unknown = Reflect.get(document, 'paths');
  if (!isObject(paths)) return document;
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      operation.operationId ??= operationIdOf(method, path, prefix);
      for (const parameter of objectsIn(operation.parameters)) {
        const schema = parameter.schema;
        if (parameter.in === 'query' && isObject(schema) && schema.default !== undefined) parameter.required = false;
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
