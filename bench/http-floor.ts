/**
 * The floor of B1-mix: bare node:http on the same core, answering every
 * request with a small JSON (what no framework, no key and no database cost).
 */
import { createServer } from 'node:http';

const body = Buffer.from(JSON.stringify({ id: 1, name: 'floor', ok: true }));
createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
}).listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
