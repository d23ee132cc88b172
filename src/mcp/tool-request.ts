import type { TSchema } from 'typebox';
import type { ToolRoute } from './tool-route.js';

/**
 * How a tool's call becomes its route's request: the input schema made from
 * the route's own parts, and the arguments sent to the path, the query or
 * the body.
 */
export const EXPECTED_VERSION = 'expected_version';

const expectedVersionSchema = (of: 'page' | 'block') => ({
  type: 'integer',
  minimum: 1,
  maximum: 2_147_483_647,
  description:
    `Write only if the ${of} is still at this version: the \`${of === 'page' ? 'version' : 'edit_version'}\` of your ` +
    `last read. If someone changed the ${of} since, the answer is 412 \`version_conflict\` with \`current_version\` ` +
    `and nothing is written: read the ${of} again and apply your change on top. Absent: no condition.`,
});

type JsonObject = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

/** A TypeBox schema as plain JSON Schema (TypeBox's own markers are not enumerable). */
const plain = (schema: TSchema): JsonObject => JSON.parse(JSON.stringify(schema)) as JsonObject;

/** Path parameters, query and body of a route as one flat object schema. */
export function inputSchema(route: ToolRoute): {
  type: 'object';
  properties: Record<string, unknown>;
  required?: string[];
} {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const part of [route.params, route.query, route.body]) {
    if (!part) continue;
    const schema = plain(part);
    for (const [key, value] of Object.entries(schema.properties ?? {})) {
      if (key in properties) throw new Error(`tool ${route.name}: "${key}" is in two parts of ${route.path}`);
      properties[key] = value;
    }
    required.push(...(schema.required ?? []));
  }
  if (route.expects) properties[EXPECTED_VERSION] = expectedVersionSchema(route.expects);
  return { type: 'object', properties, ...(required.length && { required }) };
}

/** An argument as text for a path or query string: a scalar as itself, anything else as JSON (never `[object Object]`). */
const asText = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : JSON.stringify(value);

/** Which arguments go where: the path, the query string, or the JSON body (everything else). */
export function toRequest(route: ToolRoute, args: Record<string, unknown>) {
  const names = (schema?: TSchema) => Object.keys(schema ? (plain(schema).properties ?? {}) : {});
  const pathNames = names(route.params);
  const queryNames = names(route.query);
  let path = route.path;
  for (const name of pathNames) path = path.replace(`:${name}`, encodeURIComponent(asText(args[name] ?? '')));
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) {
    if (pathNames.includes(key)) continue;
    if (route.expects && key === EXPECTED_VERSION) {
      // Whatever was given goes as one entity tag: a version matches, anything else is the API's 412 or 400.
      if (value !== undefined && value !== null) headers['if-match'] = `"${asText(value)}"`;
      continue;
    }
    if (queryNames.includes(key) || !route.body) {
      if (value !== undefined && value !== null) query.set(key, asText(value));
    } else body[key] = value;
  }
  const search = query.toString();
  return {
    method: route.method,
    path: `${path}${search ? `?${search}` : ''}`,
    body: route.body ? body : undefined,
    ...(Object.keys(headers).length && { headers }),
  };
}
