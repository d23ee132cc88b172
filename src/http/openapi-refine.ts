/**
 * Last touches on the generated OpenAPI document, where a route's schema
 * cannot say it itself: names for every operation, HTML answers declared as
 * HTML, parameters with a default not marked required, and the errors any
 * operation can answer (a 500; a body too large or of another type).
 */
import { isObject } from '../shared/is-object.js';
import { OPERATIONS, type OperationDoc } from './operations.js';
import { BODY_NAMES, ERROR_BODY_ID } from './schemas/common.js';

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

/** Its name, and when to use it before what the route says of itself. */
function describe(operation: Record<string, unknown>, doc: OperationDoc | undefined) {
  if (!doc) return;
  operation.operationId = doc.id;
  operation.description =
    typeof operation.description === 'string' ? `${doc.use}\n\n${operation.description}` : doc.use;
}

const COMPONENT_REF = '#/components/schemas/';

/**
 * A request body named by `namedBody` moves to `components.schemas` under its
 * title, with its example; the operation refers to it. Two operations that
 * send the same body share the one component.
 */
function nameRequestBody(json: Record<string, unknown>, components: Record<string, unknown>) {
  const schema = json.schema;
  if (!isObject(schema) || typeof schema.title !== 'string' || !BODY_NAMES.has(schema.title)) return;
  const name = schema.title;
  const component = { ...schema, ...(json.example !== undefined && { examples: [json.example] }) };
  const known = components[name];
  if (known !== undefined && JSON.stringify(known) !== JSON.stringify(component)) {
    throw new Error(`Two request bodies named ${name} differ`);
  }
  components[name] = component;
  json.schema = { $ref: `${COMPONENT_REF}${name}` };
}

/** The example of a named shape, for an answer or a body that refers to it and has none of its own. */
function exampleOfRef(json: Record<string, unknown>, components: Record<string, unknown>) {
  const ref = isObject(json.schema) ? json.schema.$ref : undefined;
  if (json.example !== undefined || typeof ref !== 'string' || !ref.startsWith(COMPONENT_REF)) return;
  const component = components[ref.slice(COMPONENT_REF.length)];
  const examples = isObject(component) ? component.examples : undefined;
  if (Array.isArray(examples) && examples.length > 0) json.example = examples[0];
}

/**
 * Examples: the operation's own (OPERATIONS) first; else, for a body and a
 * success, the example its schema declares, which @fastify/swagger has already
 * put on an inline schema's media, or the named shape's that it refers to.
 */
function exemplify(
  operation: Record<string, unknown>,
  doc: OperationDoc | undefined,
  components: Record<string, unknown>,
) {
  const body = jsonOf(operation.requestBody);
  if (body) {
    nameRequestBody(body, components);
    exampleOfRef(body, components);
  }
  const responses = isObject(operation.responses) ? operation.responses : {};
  for (const [status, example] of Object.entries(doc?.responses ?? {})) {
    const answer = jsonOf(responses[status]);
    if (answer) answer.example = example;
  }
  for (const [status, response] of Object.entries(responses)) {
    const answer = jsonOf(response);
    if (answer && status.startsWith('2')) exampleOfRef(answer, components);
  }
}

export function refineDocument<T extends object>(document: T, prefix: string): T {
  const paths: unknown = Reflect.get(document, 'paths');
  const root: unknown = Reflect.get(document, 'components');
  if (!isObject(paths) || !isObject(root)) return document;
  const components: Record<string, unknown> = isObject(root.schemas) ? root.schemas : {};
  root.schemas = components;
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const doc = OPERATIONS[`${method.toUpperCase()} ${path.slice(prefix.length)}`];
      describe(operation, doc);
      exemplify(operation, doc, components);
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
