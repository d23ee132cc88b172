import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ApiCall } from '../../mcp/server.js';
import type { Config } from '../../config/config.js';
import { actorOf, type App, type HttpDeps } from '../context.js';
import { ErrorBodyRef, errorResponses, withExample } from '../schemas/common.js';
import { MCP_MARK, MCP_MARK_HEADER } from '../mcp-mark.js';

/**
 * `/api/v1/mcp`: the MCP server over Streamable HTTP (stateless: a server and a
 * transport per request). The key hook of the contour has already checked the
 * caller; each tool call is the REST request itself, run in-process with the
 * caller's Authorization header, so it sees exactly what the key sees.
 */
export function mcpRoutes(app: App, deps: Pick<HttpDeps, 'config' | 'services'>) {
  const allowedOrigin = allowedOrigins(deps.config);
  // The MCP SDK (and zod under it) is loaded at the first call, not at every start (bench B5).
  let sdk: Promise<
    [
      typeof import('../../mcp/server.js'),
      typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    ]
  >;
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const [{ createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await (sdk ??= Promise.all([
      import('../../mcp/server.js'),
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    ]));
    const authorization = request.headers.authorization!;
    const api: ApiCall = async ({ method, path, body, headers }) => {
      const answer = await app.inject({
        method,
        url: `/api/v1${path}`,
        headers: {
          ...headers,
          authorization,
          [MCP_MARK_HEADER]: MCP_MARK,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
      return {
        status: answer.statusCode,
        contentType: String(answer.headers['content-type'] ?? ''),
        text: answer.body,
      };
    };
    // A page's outline is parsed on a render thread, in the caller's turn: never on this event loop.
    const actor = actorOf(request);
    const server = createMcpServer(api, (html) => deps.services.rendering.outline(actor, html));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      // The body is parsed already; the SDK reads only the method, the headers and that body.
      const answer = await transport.handleRequest(
        new Request(`http://mcp.local${request.url}`, { method: 'POST', headers: webHeaders(request) }),
        { parsedBody: request.body },
      );
      const text = await answer.text();
      reply.status(answer.status);
      if (!text) return reply.send();
      if (answer.status >= 400) return reply.send(withStringError(text));
      return reply.type(answer.headers.get('content-type') ?? 'application/json').send(text);
    } finally {
      void transport.close();
      void server.close();
    }
  };

  // DNS rebinding: a page that renamed its host to this service's address must not reach it from a browser.
  const checkOrigin = async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (origin === undefined || allowedOrigin(origin)) return;
    return reply.status(403).send({
      error: `The MCP endpoint answers browsers only from PUBLIC_URL or CORS_ORIGINS, not from ${origin}.`,
    });
  };

  // What the MCP SDK answers to a message it cannot take (bad JSON-RPC): our error body, with the
  // protocol's error beside it for a JSON-RPC client.
  const JsonRpcError = Type.Object(
    {
      error: Type.String(),
      jsonrpc: Type.Literal('2.0'),
      id: Type.Union([Type.String(), Type.Number(), Type.Null()]),
      jsonrpc_error: Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) }),
    },
    {
      description:
        'a JSON-RPC message the MCP server refuses: `error` says why, `jsonrpc_error` is the JSON-RPC 2.0 error',
    },
  );
  // A message and its answer: the tool list_sites, called with no arguments.
  const CALL_EXAMPLE = {
    jsonrpc: '2.0' as const,
    id: 1,
    method: 'tools/call',
    params: { name: 'list_sites', arguments: {} },
  };
  const ANSWER_EXAMPLE = {
    jsonrpc: '2.0',
    id: 1,
    result: { content: [{ type: 'text', text: '{"data":[],"total":0,"limit":50,"offset":0}' }] },
  };
  const schema = {
    tags: ['agents'],
    summary: 'The MCP server (Streamable HTTP) for AI agents: the same tools as the REST API, with the same key',
    description:
      'One JSON-RPC 2.0 message of the Model Context Protocol per POST, with the API key in `Authorization`; the ' +
      'answer is JSON. Stateless: no session id, no event stream. A request with an `Origin` header (a browser) ' +
      'is answered only from `PUBLIC_URL` or one of `CORS_ORIGINS` (403 otherwise, against DNS rebinding); ' +
      'clients that send no `Origin` are not concerned.',
  };
  app.post(
    '/mcp',
    {
      preHandler: checkOrigin,
      schema: {
        ...schema,
        body: withExample(
          Type.Object(
            { jsonrpc: Type.Literal('2.0') },
            { additionalProperties: true, description: 'one JSON-RPC 2.0 message' },
          ),
          CALL_EXAMPLE,
        ),
        response: {
          200: withExample(Type.Object({}, { additionalProperties: true }), ANSWER_EXAMPLE),
          202: Type.Null({ description: 'a notification (a message without an id): accepted, nothing to answer' }),
          ...errorResponses(401, 403),
          400: Type.Union([ErrorBodyRef, JsonRpcError], {
            description:
              'not a JSON-RPC 2.0 message (our error body), or one the MCP server refuses (our error body with the JSON-RPC error as `jsonrpc_error`)',
          }),
        },
      },
    },
    async (request, reply) => handle(request, reply),
  );
  // A stateless server has no stream to open and no session to end.
  for (const method of ['GET', 'DELETE'] as const)
    app.route({
      method,
      url: '/mcp',
      preHandler: checkOrigin,
      schema: { ...schema, summary: `${method}: not offered (405); use POST`, response: errorResponses(401, 403, 405) },
      handler: async (_request, reply) =>
        reply
          .header('allow', 'POST')
          .status(405)
          .send({ error: 'This MCP endpoint is stateless: send each JSON-RPC message with POST.' }),
    });
}

/** Is this `Origin` one the service answers browsers from: PUBLIC_URL's, or one of CORS_ORIGINS (`*`: any)? */
function allowedOrigins(config: Pick<Config, 'publicUrl' | 'corsOrigins'>): (origin: string) => boolean {
  if (config.corsOrigins.includes('*')) return () => true;
  const allowed = new Set([new URL(config.publicUrl).origin, ...config.corsOrigins.map((o) => new URL(o).origin)]);
  return (origin) => {
    try {
      return allowed.has(new URL(origin).origin);
    } catch {
      return false; // `null` (an opaque origin) or garbage
    }
  };
}

/** The request's headers for the SDK; the answer is plain JSON whatever the client accepts, and the SDK wants both types named. */
function webHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(', '));
  }
  headers.set('accept', 'application/json, text/event-stream');
  headers.set('content-type', 'application/json');
  return headers;
}

/** The SDK's JSON-RPC error answer as our error body: `error` a string, the protocol's error beside it. */
function withStringError(text: string): Record<string, unknown> {
  try {
    const answer = JSON.parse(text) as { error?: { message?: unknown }; id?: unknown };
    const message =
      typeof answer.error?.message === 'string' ? answer.error.message : 'The MCP server refused the message.';
    return { error: message, jsonrpc: '2.0', id: answer.id ?? null, jsonrpc_error: answer.error };
  } catch {
    return { error: 'The MCP server refused the message.' };
  }
}
