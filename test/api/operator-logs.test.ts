import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseLocation } from '../../src/config/summary.js';
import { loadConfig } from '../../src/config/config.js';
import { StorageError, type Storage } from '../../src/modules/uploads/uploads.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { form, JPEG } from '../support/images.js';

let t: TestApp;
let user: TestUser;
const lines: Record<string, any>[] = [];
// A bucket that fails every write, as a full disk or a refused credential would.
const failing: Storage = {
  put: async () => {
    throw new StorageError('Could not store the file: ENOSPC.', { cause: new Error('no space left on device') });
  },
  get: async () => undefined,
  delete: async () => undefined,
  publicUrl: () => undefined,
  directory: () => undefined,
  status: () => ({ driver: 'local', configured: true, bucket: null, public_url: null }),
};

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  t = await startApp({ env: { LOG_LEVEL: 'info' }, overrides: { logStream, storage: failing } });
  user = await newUser(t);
});
afterAll(() => t.close());

const linesOf = (id: string | null) => lines.filter((line) => line.request_id === id);
const INFO = 30;
const ERROR = 50;

describe('request lines an operator can use', () => {
  it('logs a 4xx at info with its error message, the key prefix and the client address', async () => {
    const r = await t.call('GET', '/api/v1/sites/999999', { key: user.key });
    expect(r.status).toBe(404);
    const [line] = linesOf(r.headers.get('x-request-id'));
    expect(line).toMatchObject({
      level: INFO,
      status: 404,
      error: r.body.error,
      key_prefix: user.key.slice(0, 11),
      client: '127.0.0.1',
    });
  });

  it('logs a 5xx at error, and the error with its stack under the same id', async () => {
    const original = t.app.services.sites.list;
    t.app.services.sites.list = async () => {
      throw new Error('the disk is on fire');
    };
    try {
      const r = await t.call('GET', '/api/v1/sites', { key: user.key });
      expect(r.status).toBe(500);
      const logged = linesOf(r.headers.get('x-request-id'));
      expect(logged.find((line) => line.msg === 'request')).toMatchObject({ level: ERROR, status: 500 });
      expect(logged.find((line) => line.err)?.err.stack).toMatch(/the disk is on fire\n\s+at /);
    } finally {
      t.app.services.sites.list = original;
    }
  });

  it('logs a storage failure with its cause', async () => {
    const site = await newSite(t, user);
    const r = await t.call('POST', `/api/v1/sites/${site.id}/s3/upload`, {
      key: user.key,
      rawBody: form('file', JPEG, 'photo.jpg'),
    });
    expect(r.status).toBe(502);
    expect(r.text).not.toContain('no space left');
    const failure = linesOf(r.headers.get('x-request-id')).find((line) => line.level === ERROR && line.err);
    expect(JSON.stringify(failure)).toContain('no space left on device');
  });

  it('keeps a safe incoming X-Request-Id and replaces an unsafe one', async () => {
    const kept = await t.call('GET', '/health', { headers: { 'x-request-id': 'trace-42.abc:def_1' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-42.abc:def_1');
    expect(linesOf('trace-42.abc:def_1')).toHaveLength(1);
    for (const unsafe of ['a b', 'x'.repeat(129), 'id\u00e9']) {
      const replaced = await t.call('GET', '/health', { headers: { 'x-request-id': unsafe } });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('the start line', () => {
  it('names the database without its password', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://pb:s3cret@db.internal:5432/pages', DATABASE_SCHEMA: 'app' });
    const where = databaseLocation(config);
    expect(where).toEqual({ dialect: 'postgres', location: 'pb@db.internal:5432/pages schema app' });
    expect(JSON.stringify(where)).not.toContain('s3cret');
    expect(databaseLocation(loadConfig({ DATA_DIR: '/srv/pb' }))).toEqual({
      dialect: 'sqlite',
      location: '/srv/pb/pageblocks.sqlite',
    });
  });
});
