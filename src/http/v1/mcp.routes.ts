import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { createMcpServer, type ApiCall } from '../../mcp/server.js';
import type { App } from '../context.js';
import { errorResponses } from '../schemas/common.js';

/**
 * `/api/v1/mcp`: the MCP server over Streamable HTTP (stateless: a server and a
 * transport per request). The key hook of the contour has already checked the
 * caller; each tool call is the REST request itself, run in-process with the
 * caller's Authorization header, so it sees exactly what the key sees.
 */
export function mcpRoutes(app: App) {
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const authorization = request.headers.authorization!;
    const api: ApiCall = async ({ method, path, body }) => {
      const answer = await app.inject({
        method: method as 'GET',
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

  const schema = {
    tags: ['agents'],
    summary: 'The MCP server (Streamable HTTP) for AI agents: the same tools as the REST API, with the same key',
    description:
      'JSON-RPC 2.0 messages of the Model Context Protocol. Send `Accept: application/json, text/event-stream` and the API key in `Authorization`. Stateless: no session id.',
  };
  app.post(
    '/mcp',
    {
      schema: {
        ...schema,
        body: Type.Object({}, { additionalProperties: true, description: 'one JSON-RPC message' }),
        response: { 200: Type.Object({}, { additionalProperties: true }), ...errorResponses(400, 401, 403, 406) },
      },
    },
    handle,
  );
  // A stateless server offers no stream to resume and no session to end: the SDK answers 405.
  for (const method of ['GET', 'DELETE'] as const)
    app.route({
      method,
      url: '/mcp',
      schema: {
        ...schema,
        summary: `${method}: not offered by this stateless server (405)`,
        response: errorResponses(401, 405),
      },
      handler: handle,
    });
}
