import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { isObject } from '../../src/shared/is-object.js';
import { replyOf, type Client, type Reply } from './client.js';

const addFormats = addFormatsModule.default;

/** The served OpenAPI documents, longest prefix first: `/api/v1/...` is the key contour's, the rest of `/api/...` the session's. */
const CONTOURS = ['/api/v1', '/api'] as const;
const METHODS: readonly HTTPMethod[] = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];
const isMethod = (method: string): method is HTTPMethod => METHODS.some((known) => known === method);

interface Operation {
  /** `GET /api/v1/pages/{id}`, for messages. */
  name: string;
  /** JSON pointer of the operation in its document. */
  pointer: string;
  /** The media types each status declares. */
  responses: Map<string, Record<string, unknown>>;
}

interface Contour {
  router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
  operations: Map<string, Operation>;
  ajv: Ajv;
}

const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * What a response breaks of the document of its contour: an undocumented
 * status, a content type the status does not declare, or a body that does not
 * fit the declared schema. Responses outside the documented operations (the
 * 404 of an unknown path, the 405 of a wrong method, the docs themselves) are
 * not the document's business.
 */
export function documentedResponses(baseUrl: string) {
  const contours = new Map<string, Promise<Contour>>();
  const validators = new Map<string, ValidateFunction>();

  const load = (prefix: string) => {
    let loaded = contours.get(prefix);
    if (!loaded) {
      loaded = fetch(`${baseUrl}${prefix}/docs.json`).then(async (response) => {
        if (!response.ok) throw new Error(`${prefix}/docs.json answered ${response.status}`);
        return index(prefix, await response.json());
      });
      contours.set(prefix, loaded);
    }
    return loaded;
  };

  const index = (prefix: string, document: unknown) => {
    const router = FindMyWay({ ignoreTrailingSlash: true });
    const operations = new Map<string, Operation>();
    if (!isObject(document) || !isObject(document.paths)) throw new Error(`${prefix}/docs.json has no paths`);
    const paths = document.paths;
    for (const [path, item] of Object.entries(paths)) {
      for (const method of METHODS) {
        const operation = isObject(item) ? item[method.toLowerCase()] : undefined;
        if (!isObject(operation)) continue;
        const key = `${method} ${path}`;
        const responses = new Map(
          Object.entries(isObject(operation.responses) ? operation.responses : {}).map(([status, response]) => [
            status,
            isObject(response) && isObject(response.content) ? response.content : {},
          ]),
        );
        operations.set(key, {
          name: key,
          pointer: `#/paths/${escapePointer(path)}/${method.toLowerCase()}`,
          responses,
        });
        router.on(method, path.replace(/\{(\w+)\}/g, ':$1'), () => undefined, { key });
      }
    }
    // The document is one schema resource: its responses' `#/components/schemas/...` resolve in it.
    const ajv = addFormats(new Ajv({ allErrors: true, strict: false, validateSchema: false }));
    ajv.addSchema(document, prefix);
    return { router, operations, ajv };
  };

  return async function check(method: string, path: string, reply: Reply): Promise<void> {
    const upper = method.toUpperCase();
    const prefix = CONTOURS.find((p) => path === p || path.startsWith(`${p}/`));
    if (!prefix || !isMethod(upper) || path.startsWith(`${prefix}/docs`)) return;
    const contour = await load(prefix);
    const found = contour.router.find(upper, path.split('?')[0]!);
    const key: unknown = found?.store?.key;
    const operation = typeof key === 'string' ? contour.operations.get(key) : undefined;
    if (!operation) return;

    const status = String(reply.status);
    const declared = operation.responses.get(status) ?? operation.responses.get(`${status[0]}XX`);
    const where = `${operation.name} answered ${status}`;
    if (!declared) {
      throw new Error(`${where}, a status its document does not declare: ${reply.text.slice(0, 300)}`);
    }
    const mediaType = (reply.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!reply.text) {
      if (Object.keys(declared).length > 0 && reply.status !== 204) {
        throw new Error(`${where} with no body, but the document declares ${Object.keys(declared).join(', ')}`);
      }
      return;
    }
    if (!(mediaType in declared)) {
      throw new Error(
        `${where} with ${mediaType || 'no content type'}, but the document declares ${Object.keys(declared).join(', ') || 'no body'}`,
      );
    }
    if (!mediaType.includes('json')) return;
    const pointer = `${prefix}${operation.pointer}/responses/${status}/content/${escapePointer(mediaType)}/schema`;
    let validate = validators.get(pointer);
    if (!validate) {
      validate = contour.ajv.getSchema(pointer);
      if (!validate) throw new Error(`${where}: no schema at ${pointer}`);
      validators.set(pointer, validate);
    }
    if (!validate(reply.body)) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} (${e.schemaPath})`);
      throw new Error(
        `${where} with a body that does not fit its documented schema:\n  ${errors.join('\n  ')}\nbody: ${reply.text.slice(0, 500)}`,
      );
    }
  };
}

/**
 * `fetch`, with every answer checked as the test client's are: for the
 * clients that bring their own HTTP (the generated openapi-fetch client, the
 * MCP SDK's transport). The caller gets the answer untouched.
 */
export function checkedFetch(baseUrl: string): typeof fetch {
  const check = documentedResponses(baseUrl);
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    await check(request.method, new URL(request.url).pathname, await replyOf(response.clone()));
    return response;
  };
}

/** The client, with every answer checked against the document of its contour. */
export function checkedClient(inner: Client, baseUrl: string): Client {
  const check = documentedResponses(baseUrl);
  return {
    async call(method, path, options) {
      const reply = await inner.call(method, path, options);
      await check(method, path, reply);
      return reply;
    },
  };
}
