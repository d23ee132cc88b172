import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { slugify, startFakeFourcms, type FakeFourcms } from '../../../src/providers/fourcms/fake-server.js';

const TOKEN = 'fake-token-1234';
const body = { kind: 'article', title: 'Ça marche !', html: '<p>x</p>', css: '', js: '', blocks: [] };

let fake: FakeFourcms;
beforeEach(async () => {
  fake = await startFakeFourcms({ token: TOKEN });
});
afterEach(async () => {
  await fake.close();
});

async function call(method: string, path: string, payload?: unknown, token: string | null = TOKEN) {
  const response = await fetch(`${fake.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

describe('fake fourcms server', () => {
  it('creates with 201 {id, slug}, derives the slug from the title, updates with 200', async () => {
    expect(await call('POST', '/documents', body)).toMatchObject({ status: 201, json: { id: 1, slug: 'ca-marche' } });
    expect(await call('POST', '/documents', { ...body, slug: 'given' })).toMatchObject({
      status: 201,
      json: { id: 2, slug: 'given' },
    });
    expect(await call('PUT', '/documents/1', { html: '<p>y</p>', css: '', js: '', blocks: [] })).toMatchObject({
      status: 200,
      json: { id: 1, slug: 'ca-marche' },
    });
    expect(fake.documents.get('1')).toMatchObject({ title: 'Ça marche !', html: '<p>y</p>' });
    expect(fake.documents.size).toBe(2);
  });

  it('answers 404 for an unknown id and 400 for a document missing its output', async () => {
    expect(await call('PUT', '/documents/42', { html: '', css: '', js: '', blocks: [] })).toMatchObject({
      status: 404,
      json: { error: 'document not found' },
    });
    const missing = await call('POST', '/documents', { title: 'x' });
    expect(missing.status).toBe(400);
    expect(fake.documents.size).toBe(0);
  });

  it('checks the bearer token and records every request, refused ones included', async () => {
    expect(await call('POST', '/documents', body, 'wrong')).toMatchObject({
      status: 401,
      json: { error: 'invalid token' },
    });
    expect(await call('POST', '/documents', body, null)).toMatchObject({ status: 401 });
    expect(fake.documents.size).toBe(0);
    expect(fake.requests).toEqual([
      { method: 'POST', path: '/documents', body, authorization: 'Bearer wrong' },
      { method: 'POST', path: '/documents', body, authorization: undefined },
    ]);
  });

  it('fails the next requests in the queued ways, then serves again', async () => {
    fake.failNext('500');
    fake.failNext('malformed');
    expect(await call('POST', '/documents', body)).toMatchObject({
      status: 500,
      json: { error: 'fake provider failure' },
    });
    const malformed = await call('POST', '/documents', body);
    expect(malformed.status).toBe(201);
    expect(malformed.json).toBeUndefined();
    fake.failNext('close');
    await expect(call('POST', '/documents', body)).rejects.toThrow();
    expect(await call('POST', '/documents', body)).toMatchObject({ status: 201, json: { id: 1 } });
    expect(fake.requests).toHaveLength(4);
  });

  it('close() ends even while a request hangs', async () => {
    fake.failNext('hang');
    const pending = call('POST', '/documents', body).then(
      () => 'answered',
      () => 'dropped',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.requests).toHaveLength(1);
    await fake.close();
    expect(await pending).toBe('dropped');
    fake = await startFakeFourcms({ token: TOKEN }); // for afterEach
  });

  it('slugify', () => {
    expect(slugify('  Hello, Wörld!  ')).toBe('hello-world');
    expect(slugify('***')).toBe('');
  });
});

describe('fake-server.cli', () => {
  it('prints its URL and token, serves, and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/providers/fourcms/fake-server.cli.ts'], {
      env: { ...process.env, PORT: '0', FAKE_FOURCMS_TOKEN: 'cli-token-77' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 15_000;
      while (!/token: /.test(output) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const url = /^fake fourcms url:\s+(http:\/\/127\.0\.0\.1:\d+)$/m.exec(output)?.[1];
      expect(url, output).toBeDefined();
      expect(output).toMatch(/^fake fourcms token: cli-token-77$/m);

      const response = await fetch(`${url}/documents`, {
        method: 'POST',
        headers: { authorization: 'Bearer cli-token-77', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(201);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
