import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeysRepository } from '../../src/db/repositories/api-keys.repository.js';
import { sha256Hex } from '../../src/shared/secrets.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser } from '../support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

// On PostgreSQL the lookups asked in one turn of the event loop share a statement: each must get its own answer.
describe('API key lookups asked together', () => {
  it('answer each key its own owner and page version, and a deleted or unknown key nothing', async () => {
    const a = await newUser(t);
    const b = await newUser(t);
    const gone = await newUser(t);
    const site = await newSite(t, a);
    const page = await t.call('POST', '/api/v1/pages', { key: a.key, body: { name: 'P', site_id: site.id } });
    expect(page.status).toBe(201);
    const keys = await t.call('GET', '/api/api-keys', { cookie: gone.cookie });
    expect((await t.call('DELETE', `/api/api-keys/${keys.body.data[0].id}`, { cookie: gone.cookie })).status).toBe(204);
    const repo = apiKeysRepository(t.app.database);
    const hash = (key: string) => sha256Hex(key);
    const asked = [
      repo.findOwnerByHash(hash(a.key), page.body.id),
      repo.findOwnerByHash(hash(gone.key)),
      repo.findOwnerByHash(hash(b.key)),
      repo.findOwnerByHash(hash('pb_' + '0'.repeat(64)), page.body.id),
      repo.findOwnerByHash(hash(b.key), 2_000_000_000),
      repo.findOwnerByHash(hash(a.key)),
    ];
    const [withPage, deleted, plain, unknown, noSuchPage, again] = await Promise.all(asked);
    expect(withPage).toMatchObject({ userId: a.id, isBlocked: false });
    expect(withPage!.pageVersion).toEqual(expect.stringMatching(/^\d+$/));
    expect(deleted).toBeUndefined();
    expect(plain).toMatchObject({ userId: b.id });
    expect(plain!.pageVersion).toBeUndefined();
    expect(unknown).toBeUndefined();
    expect(noSuchPage).toMatchObject({ userId: b.id, pageVersion: null });
    expect(again).toMatchObject({ userId: a.id, pageVersion: undefined });

    // The version read together with others is the one a lookup alone reads.
    expect((await repo.findOwnerByHash(hash(a.key), page.body.id))!.pageVersion).toBe(withPage!.pageVersion);
  });
});
