/**
 * A real HTTP server speaking the fourcms protocol,
 * for tests and local trials (`npm run fake-provider`). It keeps documents in
 * memory, records every request it received, and can be told to fail the next
 * call in the ways a real provider fails.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomHex } from '../../shared/secrets.js';

export type FakeFailure =
  | '500' // 500 {error: 'fake provider failure'}
  | '401' // 401 {error: 'invalid token'}
  | 'malformed' // 201 (POST) or 200 with a body that is not JSON
  | 'close' // the socket is destroyed without an answer
  | 'hang'; // no answer at all, until the client gives up or the server closes

export interface FakeDocument extends Record<string, unknown> {
  id: string;
  slug: string | null;
}

export interface FakeRequest {
  method: string;
  path: string;
  /** Parsed JSON, or the raw text when it was not JSON (undefined when empty). */
  body: unknown;
  authorization: string | undefined;
}

export interface FakeFourcmsOptions {
  /** 0 (default): any free port. */
  port?: number;
  host?: string;
  /** Random when absent. */
  token?: string;
  /** Ids as JSON numbers (`1`, default) or as strings (`"doc-1"`). */
  ids?: 'number' | 'string';
  /** One line per request (method, path, status); never the token. */
  log?: (line: string) => void;
}

export interface FakeFourcms {
  url: string;
  token: string;
  /** Keyed by the id as a string. */
  documents: Map<string, FakeDocument>;
  requests: FakeRequest[];
  /** Queue a failure for the next request (several calls queue several failures). */
  failNext(mode: FakeFailure): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const REQUIRED_ON_PUBLISH = ['kind', 'title', 'html', 'css', 'js', 'blocks'] as const;
const REQUIRED_ON_UPDATE = ['html', 'css', 'js', 'blocks'] as const;

export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

export async function startFakeFourcms(options: FakeFourcmsOptions = {}): Promise<FakeFourcms> {
  const token = options.token ?? randomHex(16);
  const documents = new Map<string, FakeDocument>();
  const requests: FakeRequest[] = [];
  const failures: FakeFailure[] = [];
  let nextId = 1;

  const send = (req: IncomingMessage, res: ServerResponse, status: number, body: unknown, raw = false) => {
    options.log?.(`${req.method} ${req.url} → ${status}`);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(raw ? String(body) : JSON.stringify(body));
  };
  const answer = (doc: FakeDocument) => ({ id: options.ids === 'string' ? doc.id : Number(doc.id), slug: doc.slug });
  const newId = () => (options.ids === 'string' ? `doc-${nextId++}` : String(nextId++));

  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    let body: unknown = undefined;
    let parsed = true;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
        parsed = false;
      }
    }
    requests.push({ method: req.method ?? '', path, body, authorization: req.headers.authorization });

    const failure = failures.shift();
    if (failure === 'hang') return options.log?.(`${req.method} ${path} → (hanging)`);
    if (failure === 'close') {
      options.log?.(`${req.method} ${path} → (connection destroyed)`);
      return req.socket.destroy();
    }
    if (failure === '500') return send(req, res, 500, { error: 'fake provider failure' });
    if (failure === '401') return send(req, res, 401, { error: 'invalid token' });
    if (failure === 'malformed')
      return send(req, res, req.method === 'POST' ? 201 : 200, '{"id": 1, "slug": <not json', true);

    if (req.headers.authorization !== `Bearer ${token}`) return send(req, res, 401, { error: 'invalid token' });
    if (!parsed || (text && (typeof body !== 'object' || body === null || Array.isArray(body)))) {
      return send(req, res, 400, { error: 'the body must be a JSON object' });
    }
    const fields = (body ?? {}) as Record<string, unknown>;

    if (path === '/documents' && req.method === 'POST') {
      const missing = REQUIRED_ON_PUBLISH.filter((name) => fields[name] === undefined);
      if (missing.length) return send(req, res, 400, { error: `missing fields: ${missing.join(', ')}` });
      const id = newId();
      const given = typeof fields.slug === 'string' && fields.slug ? fields.slug : null;
      const slug = given ?? (slugify(String(fields.title)) || `document-${id}`);
      const doc: FakeDocument = { ...fields, id, slug };
      documents.set(id, doc);
      return send(req, res, 201, answer(doc));
    }
    if (path === '/me' && req.method === 'GET')
      return send(req, res, 200, { id: 'fake-account', name: 'Fake fourcms' });
    const match = /^\/documents\/([^/]+)$/.exec(path);
    if (match?.[1] && req.method === 'PUT') {
      const existing = documents.get(decodeURIComponent(match[1]));
      if (!existing) return send(req, res, 404, { error: 'document not found' });
      const missing = REQUIRED_ON_UPDATE.filter((name) => fields[name] === undefined);
      if (missing.length) return send(req, res, 400, { error: `missing fields: ${missing.join(', ')}` });
      const slug = typeof fields.slug === 'string' && fields.slug ? fields.slug : existing.slug;
      const doc: FakeDocument = { ...existing, ...fields, id: existing.id, slug };
      documents.set(doc.id, doc);
      return send(req, res, 200, answer(doc));
    }
    if (path === '/documents' || match) return send(req, res, 405, { error: 'method not allowed' });
    return send(req, res, 404, { error: 'not found' });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        send(req, res, 413, { error: 'body too large' });
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (size <= MAX_BODY_BYTES) handle(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    token,
    documents,
    requests,
    failNext: (mode) => void failures.push(mode),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Hanging and kept-alive connections would hold close() open.
        server.closeAllConnections();
      }),
  };
}
