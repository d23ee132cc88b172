import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer, type ApiCall } from './server.js';

/**
 * `npm run mcp`: the MCP server over stdio, for desktop agents. It talks to a
 * running Pageblocks at PAGEBLOCKS_URL with the key in PAGEBLOCKS_API_KEY.
 * Stdout carries the protocol only; messages go to stderr.
 */
const baseUrl = process.env.PAGEBLOCKS_URL?.replace(/\/+$/, '');
const key = process.env.PAGEBLOCKS_API_KEY;
if (!baseUrl || !key) {
  process.stderr.write(
    'Set PAGEBLOCKS_URL (e.g. http://127.0.0.1:3000) and PAGEBLOCKS_API_KEY (pb_…, made in the web app or with POST /api/api-keys).\n',
  );
  process.exit(2);
}

const api: ApiCall = async ({ method, path, body, headers }) => {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: {
      ...headers,
      authorization: `Bearer ${key}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
};

await createMcpServer(api).connect(new StdioServerTransport());
