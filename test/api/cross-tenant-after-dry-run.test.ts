import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';

describe('a dry run that ends in a conflict leaves nothing for the next request', () => {
  let t: TestApp;
  let a: TestUser;
  let b: TestUser;
  let siteA: number;
  let siteB: number;
  beforeAll(async () => {
    t = await startApp();
    a = await newUser(t);
    b = await newUser(t);
    siteA = (await newSite(t, a)).id;
    siteB = (await newSite(t, b)).id;
  });
  afterAll(() => t?.close());

  it("refuses B's page in A's site after B's conflicting dry run", async () => {
    const first = await t.call('POST', '/api/v1/pages', {
      key: b.key,
      body: { name: 'One', site_id: siteB, slug: 's1' },
    });
    expect(first.status).toBe(201);
    const dry = await t.call('POST', '/api/v1/pages?dry_run=1', {
      key: b.key,
      body: { name: 'Two', site_id: siteB, slug: 's1' },
    });
    expect(dry.status).toBe(409);
    const cross = await t.call('POST', '/api/v1/pages', { key: b.key, body: { name: 'Three', site_id: siteA } });
    expect(cross.status).toBe(403);
    expect(cross.body.errors).toEqual([expect.objectContaining({ path: 'site_id' })]);
  });
});
