import { request as httpRequest, createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy on loopback, as nginx with `proxy_set_header
 * X-Forwarded-For $proxy_add_x_forwarded_for`: it appends its client's
 * address to whatever X-Forwarded-For the client sent, and connects to the
 * upstream from `from` (127.0.0.1, or another loopback address that a test
 * names in TRUST_PROXY).
 */
export async function startTestProxy(upstream: string, options: { from: string }) {
  const target = new URL(upstream);
  const server = createServer((incoming, outgoing) => {
    const sent = incoming.headers['x-forwarded-for'];
    const forwardedFor = [sent, incoming.socket.remoteAddress].filter(Boolean).join(', ');
    const proxied = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        localAddress: options.from,
        headers: { ...incoming.headers, 'x-forwarded-for': forwardedFor },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    proxied.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface FromReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** One request from a chosen loopback address (the client's own socket address, which no header can change). */
export function callFrom(
  base: string,
  method: string,
  path: string,
  options: { from: string; body?: unknown; headers?: Record<string, string> },
): Promise<FromReply> {
  const url = new URL(path, base);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname + url.search,
        localAddress: options.from,
        headers: { ...(payload && { 'content-type': 'application/json' }), ...options.headers },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          const json = (answer.headers['content-type'] ?? '').includes('json') && text ? JSON.parse(text) : text;
          resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: json });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}
