import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { createAjv } from '../../src/shared/ajv.js';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on loopback: it keeps every request and answers each
 * path with the statuses queued for it, in turn (200 once they run out;
 * `hang`: no answer at all; a 3xx points at the cloud metadata address).
 */
export async function startReceiver() {
  const received: Received[] = [];
  const script = new Map<string, (number | 'hang')[]>();
  const hanging = new Set<import('node:http').ServerResponse>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = script.get(path)?.shift() ?? 200;
      // Never answers: the sender's deadline has to end it.
      if (status === 'hang') return void hanging.add(response);
      response.writeHead(status, {
        'content-type': 'text/plain',
        ...(status >= 300 && status < 400 && { location: 'http://169.254.169.254/latest/meta-data' }),
      });
      response.end(status < 300 ? 'ok' : `failed with ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    /** The next answers of `path`. */
    answer: (path: string, ...statuses: (number | 'hang')[]) =>
      script.set(path, [...(script.get(path) ?? []), ...statuses]),
    close: () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 40_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`waited too long: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Each received event held to its schema in the OpenAPI document's
 * `webhooks` (no field more nor less); answers the event types seen.
 */
export function expectDocumented(webhooks: Record<string, any>, received: Received[]): Set<string> {
  const ajv = createAjv();
  const types = new Set<string>();
  for (const { body } of received) {
    const event = JSON.parse(body) as { type: string };
    types.add(event.type);
    const schema = webhooks[event.type]?.post.requestBody.content['application/json'].schema;
    expect(schema, event.type).toBeDefined();
    expect(ajv.validate(schema, event), `${event.type}: ${ajv.errorsText()} in ${body}`).toBe(true);
  }
  return types;
}
