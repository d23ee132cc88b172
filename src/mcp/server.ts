import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../shared/errors.js';
import { nearMiss } from '../shared/near-miss.js';
import { outlineOf } from '../shared/html-outline.js';
import { SPEC_SUMMARY } from './spec-summary.js';
import { EXPECTED_VERSION, inputSchema, toRequest } from './tool-request.js';
import { TOOL_ROUTES, type ToolRoute } from './tools.js';

/** An answer of the REST API, as the MCP server relays it. */
export interface ApiAnswer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * Port: one call to `/api/v1` as the caller (with the caller's key). Over stdio
 * it is `fetch` to PAGEBLOCKS_URL; served by the service, an in-process request
 * carrying the same Authorization header, so isolation is exactly the REST one.
 */
export type ApiCall = (request: {
  method: ToolRoute['method'];
  path: string;
  body?: unknown;
  /** `if-match`, from a tool's `expected_version`. */
  headers?: Record<string, string>;
}) => Promise<ApiAnswer>;

const RESOURCES = [
  {
    uri: 'pageblocks://spec/summary',
    name: 'spec-summary',
    title: 'How to build and publish a page',
    description: 'The workflow, the rules that trip agents up, and the error shape. Read it first.',
    mimeType: 'text/markdown',
  },
  {
    uri: 'pageblocks://catalog/blocks',
    name: 'block-catalog',
    title: 'Block catalog',
    description: 'Every block visible to the key (id, name, description, kind, scope, tags, version), up to 200.',
    mimeType: 'application/json',
  },
];

/** A block as a list shows it to an agent choosing one: never its template, CSS, JS or fields. */
const shortBlock = (b: Record<string, unknown>) => ({
  id: b.id,
  name: b.name,
  description: b.description,
  kind: b.kind,
  scope: b.scope,
  tags: b.tags,
  version: b.version,
});

/** A page of blocks, each short, with what to call for the rest. */
const hitsAnswer = (body: Record<string, unknown>): Record<string, unknown> => ({
  ...body,
  data: (body.data as Record<string, unknown>[]).map(shortBlock),
  note: 'Each block is shown short: get_block reads its template and fields, get_placeholder_schema its contract.',
});

const parse = (answer: ApiAnswer): unknown => {
  if (!answer.text) return undefined;
  if (!answer.contentType.includes('json')) return answer.text;
  try {
    return JSON.parse(answer.text);
  } catch {
    return answer.text;
  }
};

const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { result: value ?? null };

/**
 * A tool's answer is its result once, as content (docs/decisions.md, "MCP
 * answers"): no tool declares an output schema, so none sends
 * `structuredContent`, which the protocol would have us repeat as text.
 */
const text = (body: string): CallToolResult['content'][number] => ({ type: 'text', text: body });

/** A failed call: the API's own error body with its status (`error` a string, `errors[]` at their paths), with `isError`. */
const failure = (status: number, body: unknown): CallToolResult => ({
  isError: true,
  content: [text(JSON.stringify({ status, ...asObject(body) }))],
});

/**
 * The API names the `If-Match` header where a tool's caller gave
 * `expected_version`: the error is said at that argument, its expected value
 * the version itself (`W/"8"` → 8).
 */
const asExpectedVersion = (body: unknown): unknown => {
  const object = asObject(body);
  if (!Array.isArray(object.errors)) return body;
  const errors = object.errors.map((entry: unknown) => {
    const error = asObject(entry);
    if (error.path !== 'If-Match') return entry;
    const version = typeof error.expected === 'string' ? /^W\/"(\d+)"$/.exec(error.expected)?.[1] : undefined;
    return {
      ...error,
      path: EXPECTED_VERSION,
      message: String(error.message).replace('If-Match', EXPECTED_VERSION),
      ...(version !== undefined
        ? { expected: Number(version) }
        : error.expected !== undefined && { expected: 'a version number' }),
    };
  });
  return { ...object, errors };
};

/**
 * Port: a rendered page's outline. Served by the service, it is made on a
 * render thread in the caller's turn; over stdio (a process of its own) here.
 */
export type OutlineOf = (html: string) => Promise<string>;

/** The most HTML a preview's answer carries: the whole page is one REST call away. */
export const PREVIEW_HTML_MAX = 64 * 1024;

/**
 * A preview as an agent reads it: a text of the outline and a note of the
 * page's size, and the HTML up to `PREVIEW_HTML_MAX` characters as an
 * embedded `text/html` resource, each once. A 15.7 M-character page was
 * answered twice over, 31 MB, beside its outline.
 */
async function previewAnswer(html: string, path: string, outline: OutlineOf): Promise<CallToolResult> {
  const complete = html.length <= PREVIEW_HTML_MAX;
  const note = complete
    ? `The page's HTML is ${html.length} characters, all in the text/html resource of this answer.`
    : `The page's HTML is ${html.length} characters; the text/html resource of this answer holds the first ` +
      `${PREVIEW_HTML_MAX}. The whole document: GET /api/v1${path}.`;
  let lines: string;
  try {
    lines = await outline(html);
  } catch (error) {
    // Past the caller's share of the render threads: said as the REST API says it.
    if (error instanceof AppError && error.kind === 'rate_limited')
      return failure(429, { error: error.message, ...error.details });
    throw error;
  }
  return {
    content: [
      text(`Outline:\n${lines}\n\n${note}`),
      {
        type: 'resource',
        resource: {
          uri: `pageblocks:/${path}`,
          mimeType: 'text/html',
          text: complete ? html : html.slice(0, PREVIEW_HTML_MAX),
        },
      },
    ],
  };
}

export function createMcpServer(api: ApiCall, outline: OutlineOf = async (html) => outlineOf(html)): Server {
  const server = new Server(
    { name: 'pageblocks', title: 'Pageblocks', version: '1.0.0' },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Build pages from blocks and publish them. Read the resource pageblocks://spec/summary first. Workflow: ' +
        'list_sites (or create_site, then set_site_provider) → list_blocks/search_blocks (or create_block) → ' +
        'get_placeholder_schema (expand: "sources") → create_page → preview_page → publish_page. Every error names the place (errors[].path), a code, what was expected and often ' +
        'a hint: fix exactly that and retry.',
    },
  );

  const tools = TOOL_ROUTES.map((route) => ({
    name: route.name,
    description: route.description,
    inputSchema: inputSchema(route),
    annotations: { readOnlyHint: route.method === 'GET', destructiveHint: route.method === 'DELETE' },
  }));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

  server.setRequestHandler(CallToolRequestSchema, async ({ params }): Promise<CallToolResult> => {
    const route = TOOL_ROUTES.find((r) => r.name === params.name);
    if (!route) {
      const names = TOOL_ROUTES.map((r) => r.name);
      const near = nearMiss(params.name, names);
      return failure(404, {
        error: `No tool ${params.name}.`,
        errors: [
          {
            path: 'name',
            message: `No tool ${params.name}.`,
            code: 'not_found',
            expected: names,
            ...(near && { hint: `did you mean \`${near}\`?` }),
          },
        ],
      });
    }
    const request = toRequest(route, params.arguments ?? {});
    const answer = await api(request);
    if (answer.status >= 400)
      return failure(answer.status, route.expects ? asExpectedVersion(parse(answer)) : parse(answer));
    if (route.answer === 'preview' && !answer.contentType.includes('json'))
      return previewAnswer(answer.text, request.path, outline);
    if (answer.status === 204 || !answer.text) return { content: [text('{"done":true}')] };
    // Lists of blocks are made short here; any other answer goes as the API sent it, never parsed nor serialised again.
    if (route.answer === 'hits') return { content: [text(JSON.stringify(hitsAnswer(asObject(parse(answer)))))] };
    return { content: [text(answer.text)] };
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));

  server.setRequestHandler(ReadResourceRequestSchema, async ({ params }) => {
    if (params.uri === 'pageblocks://spec/summary')
      return { contents: [{ uri: params.uri, mimeType: 'text/markdown', text: SPEC_SUMMARY }] };
    if (params.uri === 'pageblocks://catalog/blocks') {
      const answer = await api({ method: 'GET', path: '/blocks?limit=200' });
      const body = asObject(parse(answer));
      if (answer.status >= 400)
        throw new Error(typeof body.error === 'string' ? body.error : `status ${answer.status}`);
      const blocks = (body.data as Record<string, unknown>[]).map(shortBlock);
      return {
        contents: [
          { uri: params.uri, mimeType: 'application/json', text: JSON.stringify({ total: body.total, blocks }) },
        ],
      };
    }
    throw new Error(`No resource ${params.uri}: see resources/list.`);
  });

  return server;
}
