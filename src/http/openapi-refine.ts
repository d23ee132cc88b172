/**
 * Last touches on the generated OpenAPI document, where a route's schema
 * cannot say it itself: names for every operation, HTML answers declared as
 * HTML, and parameters with a default not marked required.
 */
type Json = Record<string, any>;

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

export function refineDocument<T extends object>(document: T, prefix: string): T {
  const paths: Json = Reflect.get(document, 'paths') ?? {};
  for (const [path, item] of Object.entries<Json>(paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      operation.operationId ??= operationIdOf(method, path, prefix);
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'query' && parameter.schema?.default !== undefined) parameter.required = false;
      }
      for (const response of Object.values<Json>(operation.responses ?? {})) {
        const json = response.content?.['application/json'];
        if (json?.schema?.description === 'text/html') {
          response.content = { 'text/html': { schema: { type: 'string' } } };
        }
      }
    }
  }
  return document;
}
