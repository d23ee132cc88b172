import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ApiCall } from '../../mcp/server.js';
import type { App } from '../context.js';
import { ErrorBodyRef, errorResponses, withExample } from '../schemas/common.js';

/**
 * `/api/v1/mcp`: the MCP server over Streamable HTTP (stateless: a server and a
 * transport per request). The key hook of the contour has already checked the
 * caller; each tool call is the REST request itself, run in-process with the
 * caller's Authorization header, so it sees exactly what the key sees.
 */
export function mcpRoutes(app: App) {
  // The MCP SDK (and zod under it) is loaded at the first call, not at every start (bench B5).
  let sdk: Promise<
    [typeof import('../../mcp/server.js'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]
  >;
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await (sdk ??= Promise.all([
      import('../../mcp/server.js'),
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    ]));
    const authorization = request.headers.authorization!;
    const api: ApiCall = async ({ method, path, body }) => {
      const answer = await app.inject({
        method,
        url: `/api/v1${path}`,
        headers: { authorization, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
      return {
        status: answer.statusCode,
        contentType: String(answer.headers['content-type'] ?? ''),
        text: answer.body,
      };
    };
    const server = createMcpServer(api);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  };

  // What the MCP SDK answers to a message it cannot take (bad JSON-RPC): the protocol's own error shape.
  const JsonRpcError = Type.Object(
    {
      jsonrpc: Type.Literal('2.0'),
      error: Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) }),
      id: Type.Union([Type.String(), Type.Number(), Type.Null()]),
    },
    { description: 'a JSON-RPC 2.0 error' },
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
      'answer is JSON. Stateless: no session id, no event stream.',
  };
  app.post(
    '/mcp',
    {
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
              'not a JSON-RPC 2.0 message (our error body), or one the MCP server refuses (a JSON-RPC error)',
          }),
        },
      },
    },
    async (request, reply) => {
      // The answer is plain JSON whatever the client accepts; the SDK wants both types named.
      request.raw.headers.accept = 'application/json, text/event-stream';
      await handle(request, reply);
    },
  );
  // A stateless server has no stream to open and no session to end.
  for (const method of ['GET', 'DELETE'] as const)
    app.route({
      method,
      url: '/mcp',
      schema: { ...schema, summary: `${method}: not offered (405); use POST`, response: errorResponses(401, 403, 405) },
      handler: async (_request, reply) =>
        reply
          .header('allow', 'POST')
          .status(405)
          .send({ error: 'This MCP endpoint is stateless: send each JSON-RPC message with POST.' }),
    });
}
