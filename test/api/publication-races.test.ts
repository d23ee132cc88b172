import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicationRepository } from '../../src/modules/publishing/publishing.js';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createPage } from '../support/library.js';
import { race } from '../support/races.js';

/**
 * A publication racing the delete of its page. The provider answers (or
 * refuses the token) while the page goes: the publication answers as it does
 * on a page that is already gone (404), or as it does when it won (200, or
 * 502 from the refusing provider), never 500. The model-based sequences met
 * a 500 here: the claim found no row, and the status read after it was taken
 * for granted.
 */

let t: TestApp;
let fake: FakeFourcms;
let user: TestUser;

beforeAll(async () => {
  fake = await startFakeFourcms();
  t = await startApp();
  user = await newUser(t);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const call = (method: string, path: string, body?: unknown) =>
  t.call(method, `/api/v1${path}`, { key: user.key, ...(body === undefined ? {} : { body }) });

/** A page on a site whose provider takes `token` (the fake's own, or one it refuses). */
async function pageWithProvider(token: string, published = false) {
  const site = await newSite(t, user, 'Raced publication');
  const set = await call('PUT', `/sites/${site.id}/provider/fourcms`, { base_url: fake.url, token });
  if (set.status !== 200) throw new Error(`setup: ${set.status} ${set.text}`);
  const page = await createPage(t, user, { name: 'P', site_id: site.id });
  if (published) {
    const r = await call('POST', `/pages/${page.id}/publish`, { rubric_ids: [1] });
    if (r.status !== 200) throw new Error(`setup: ${r.status} ${r.text}`);
  }
  return page as { id: number };
}

describe('a publication racing the delete of its page', () => {
  it('publish, the provider accepting', () =>
    race(t, {
      setup: () => pageWithProvider(fake.token),
      remove: (p) => call('DELETE', `/pages/${p.id}`),
      write: (p) => call('POST', `/pages/${p.id}/publish`, { rubric_ids: [1] }),
      wins: [200],
      removals: [204],
    }));

  it('publish, the provider refusing the token', () =>
    race(t, {
      setup: () => pageWithProvider('wrong-token'),
      remove: (p) => call('DELETE', `/pages/${p.id}`),
      write: (p) => call('POST', `/pages/${p.id}/publish`, { rubric_ids: [1] }),
      wins: [502],
      removals: [204],
    }));

  it('publish-update', () =>
    race(t, {
      setup: () => pageWithProvider(fake.token, true),
      remove: (p) => call('DELETE', `/pages/${p.id}`),
      write: (p) => call('POST', `/pages/${p.id}/publish-update`, {}),
      wins: [200],
      removals: [204],
    }));

  it('a schedule', () =>
    race(t, {
      setup: () => pageWithProvider(fake.token),
      remove: (p) => call('DELETE', `/pages/${p.id}`),
      write: (p) =>
        call('POST', `/pages/${p.id}/schedule`, {
          publish_at: new Date(Date.now() + 3_600_000).toISOString(),
          rubric_ids: [1],
        }),
      wins: [200, 201],
      removals: [204],
    }));
});

describe('the page deleted between its read and the publication claim', () => {
  it('answers 404, as on a page that was gone before, and the provider is not called', async () => {
    // The race above meets this window rarely: here the page goes exactly there, through the real repository.
    const repository = (t.app.services.publishing as unknown as { deps: { publication: PublicationRepository } }).deps
      .publication;
    const claim = repository.claim;
    const page = await pageWithProvider(fake.token);
    const gone = await call('POST', '/pages/999999999/publish', { rubric_ids: [1] });
    const calls = fake.requests.length;
    repository.claim = async (input) => {
      await sql`delete from pages where id = ${input.pageId}`.execute(t.app.database.db);
      return claim.call(repository, input);
    };
    try {
      const r = await call('POST', `/pages/${page.id}/publish`, { rubric_ids: [1] });
      expect(r.status, r.text).toBe(404);
      expect(r.body).toEqual({ ...gone.body, error: `Page ${page.id} not found.` });
    } finally {
      repository.claim = claim;
    }
    expect(fake.requests.length).toBe(calls);
  });
});
