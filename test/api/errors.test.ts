import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { jobSchema } from '../../src/db/jobs/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newUser, type TestUser } from '../support/factories.js';

let t: TestApp;
let user: TestUser;
const logLines: string[] = [];
beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _enc, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  t = await startApp({ env: { LOG_LEVEL: 'info' }, overrides: { logStream } });
  user = await newUser(t);
});
afterAll(() => t.close());

describe('the error model', () => {
  it('answers malformed JSON with a JSON 400', async () => {
    const r = await t.call('POST', '/api/sites', {
      cookie: user.cookie,
      rawBody: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(r.body.error).toMatch(/not valid JSON/);
  });

  it('answers an unknown route with a JSON 404', async () => {
    const r = await t.call('GET', '/api/v1/nothing-here', { key: user.key });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'No route GET /api/v1/nothing-here.' });
  });

  it('answers a known path with a wrong method with a JSON 405 and Allow', async () => {
    const r = await t.call('PATCH', '/api/v1/sites', { key: user.key });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, POST');
    expect(r.body.error).toMatch(/not allowed/);
    const withParam = await t.call('POST', '/api/sites/12', { cookie: user.cookie, body: {} });
    expect(withParam.status).toBe(405);
    expect(withParam.headers.get('allow')).toBe('GET, PUT, DELETE');
  });

  it('answers a body over the limit with a JSON 413 and writes nothing', async () => {
    const r = await t.call('POST', '/api/sites', { cookie: user.cookie, body: { name: 'x'.repeat(11 * 1024 * 1024) } });
    expect(r.status).toBe(413);
    expect(r.body.error).toMatch(/too large/);
    expect((await t.call('GET', '/api/sites', { cookie: user.cookie })).body.total).toBe(0);
  });

  it('maps schema errors to body paths: a string where an integer belongs, an empty name', async () => {
    const r = await t.call('PUT', '/api/sites/1', { cookie: user.cookie, body: { name: '', layout_id: '1' } });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'This value should not be blank.', code: 'blank' },
        {
          path: 'layout_id',
          message: 'This value should be of type int or null.',
          code: 'type',
          expected: ['integer', 'null'],
          hint: 'send 1 as a JSON number, without quotes',
        },
      ]),
    );
  });

  it('reports a body that is not an object at root', async () => {
    const r = await t.call('POST', '/api/sites', { cookie: user.cookie, body: [1, 2] });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toBe('root');
  });

  it('hides the internals of a 500 and logs it with its request id', async () => {
    const original = t.app.services.sites.list;
    t.app.services.sites.list = async () => {
      throw new Error('db password is hunter2');
    };
    try {
      const r = await t.call('GET', '/api/v1/sites', { key: user.key });
      expect(r.status).toBe(500);
      expect(r.text).not.toContain('hunter2');
      expect(r.body.error).toBe('Internal server error.');
      const requestId = r.headers.get('x-request-id');
      expect(r.body.request_id).toBe(requestId);
      const logged = logLines.map((l) => JSON.parse(l)).find((l) => l.request_id === requestId && l.level === 50);
      expect(logged?.err?.message).toBe('db password is hunter2');
    } finally {
      t.app.services.sites.list = original;
    }
  });
});

describe('request logs', () => {
  it('writes one JSON line per request with method, route, status, time, request id and user id', async () => {
    const r = await t.call('GET', '/api/v1/sites', { key: user.key });
    const id = r.headers.get('x-request-id');
    const lines = logLines.map((l) => JSON.parse(l)).filter((l) => l.request_id === id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: 'GET', route: '/api/v1/sites', status: 200, user_id: user.id });
    expect(typeof lines[0].ms).toBe('number');
  });

  it('never writes a key, a password, a cookie or a session token', async () => {
    const secretUser = await newUser(t, { password: 'very-secret-password' });
    await t.call('POST', '/api/auth/login', { body: { email: secretUser.email, password: 'very-secret-password' } });
    await t.call('POST', '/api/auth/login', { body: { email: secretUser.email, password: 'wrong-secret-password' } });
    await t.call('GET', '/api/v1/sites', { query: { api_key: secretUser.key } });
    await t.call('GET', '/api/v1/sites', { key: secretUser.key });
    const all = logLines.join('\n');
    expect(all).not.toContain(secretUser.key);
    expect(all).not.toContain(secretUser.key.slice(3));
    expect(all).not.toContain('very-secret-password');
    expect(all).not.toContain('wrong-secret-password');
    expect(all).not.toContain(secretUser.cookie.split('=')[1]!);
  });
});

describe('health', () => {
  it('answers /health and /ready', async () => {
    expect((await t.call('GET', '/health')).body).toEqual({ status: 'ok' });
    expect((await t.call('GET', '/ready')).body).toEqual({ status: 'ready' });
  });

  it('answers /ready with 503 when the database does not answer', async () => {
    const broken = await startApp();
    try {
      await broken.app.database.close();
      const r = await broken.call('GET', '/ready');
      expect(r.status).toBe(503);
      expect(r.body.error).toMatch(/database/);
      expect((await broken.call('GET', '/health')).status).toBe(200);
    } finally {
      await broken.app.http.close();
      await broken.close().catch(() => undefined);
    }
  });

  it('answers /ready with 503 naming the job queue when its store is gone, the database answering', async () => {
    const broken = await startApp();
    try {
      expect((await broken.call('GET', '/ready')).status).toBe(200);
      const drop =
        broken.app.jobs.kind === 'pg-boss'
          ? `drop schema "${jobSchema(broken.config.databaseSchema)}" cascade`
          : 'drop table jobs';
      await sql.raw(drop).execute(broken.app.database.db);
      const r = await broken.call('GET', '/ready');
      expect(r.status).toBe(503);
      expect(r.body.error).toBe('The job queue does not answer.');
    } finally {
      await broken.close().catch(() => undefined);
    }
  });
});
