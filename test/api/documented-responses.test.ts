import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import type { Reply } from '../support/client.js';
import { checkedFetch, documentedResponses } from '../support/documented-responses.js';

let t: TestApp;
let check: ReturnType<typeof documentedResponses>;
beforeAll(async () => {
  t = await startApp();
  check = documentedResponses(t.url);
});
afterAll(() => t.close());

const reply = (status: number, body: unknown, contentType = 'application/json; charset=utf-8'): Reply => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers: new Headers(contentType ? { 'content-type': contentType } : {}), body, text };
};
const site = { id: 1, name: 'S', domain: null, layout_id: null, created_at: '2026-01-01T00:00:00.000Z' };

// Every test client checks each answer this way (test/support/app.ts); here the check itself is shown failing.
describe('the check of an answer against the served document', () => {
  it('passes an answer that fits, on both contours', async () => {
    await expect(check('GET', '/api/v1/sites/1', reply(200, { ...site, updated_at: site.created_at }))).resolves.toBe(
      undefined,
    );
    await expect(check('GET', '/api/sites?limit=5', reply(401, { error: 'Sign in.' }))).resolves.toBe(undefined);
  });

  it('fails a body that does not fit the schema of its status, at its path', async () => {
    await expect(check('GET', '/api/v1/sites/1', reply(200, site))).rejects.toThrow(
      /GET \/api\/v1\/sites\/\{id\} answered 200 with a body that does not fit[\s\S]*updated_at/,
    );
    await expect(check('GET', '/api/v1/sites/1', reply(404, { message: 'gone' }))).rejects.toThrow(/'error'/);
  });

  it('fails a status the operation does not declare', async () => {
    await expect(check('DELETE', '/api/v1/sites/1', reply(200, {}))).rejects.toThrow(/a status its document does not/);
  });

  it('fails a content type the status does not declare, and a body where none is declared', async () => {
    await expect(check('GET', '/api/v1/sites/1', reply(200, '<p>site</p>', 'text/html'))).rejects.toThrow(
      /with text\/html, but the document declares application\/json/,
    );
    await expect(check('GET', '/api/v1/pages/1/preview', reply(200, { html: '' }))).rejects.toThrow(/text\/html/);
    await expect(check('DELETE', '/api/v1/sites/1', reply(204, { id: 1 }))).rejects.toThrow(/declares no body/);
  });

  it('leaves alone what is no documented operation: an unknown path, the docs themselves', async () => {
    await expect(check('GET', '/api/v1/nothing-here', reply(404, 'x', 'text/plain'))).resolves.toBe(undefined);
    await expect(check('GET', '/api/v1/docs.json', reply(200, 'x', 'text/plain'))).resolves.toBe(undefined);
  });
});

// The clients that bring their own HTTP (openapi-fetch, the MCP SDK) are given this fetch.
describe('a checked fetch', () => {
  it('hands a documented answer over untouched, its body still to read', async () => {
    const answer = await checkedFetch(t.url)(new Request(`${t.url}/api/v1/sites/1`));
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: expect.any(String) });
  });

  it('fails an answer that breaks the document, as the test client does', async () => {
    // A server with the service's documents that answers a site without its fields.
    const liar = createServer((request, response) => {
      if (request.url?.endsWith('/docs.json')) {
        void fetch(`${t.url}${request.url}`).then(async (docs) => response.end(await docs.text()));
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ id: 1 }));
    });
    await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(liar.address() as AddressInfo).port}`;
    try {
      await expect(checkedFetch(url)(`${url}/api/v1/sites/1`)).rejects.toThrow(
        /GET \/api\/v1\/sites\/\{id\} answered 200 with a body that does not fit/,
      );
    } finally {
      await new Promise((resolve) => liar.close(resolve));
    }
  });
});
