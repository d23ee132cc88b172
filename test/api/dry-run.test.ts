import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage, heroFields } from '../support/library.js';

let t: TestApp;
let user: TestUser;
let site: { id: number };
let hero: { id: number };
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
  hero = await createBlock(t, user, { name: 'Hero', schema_content: heroFields });
});
afterAll(() => t.close());

const dry = { dry_run: 1 };
const call = (method: string, path: string, body?: unknown, query?: Record<string, number>) =>
  t.call(method, path, { key: user.key, ...(body !== undefined && { body }), ...(query && { query }) });
const pageState = async (id: number) => (await call('GET', `/api/v1/pages/${id}`, undefined, { with_blocks: 1 })).body;
/** What may differ between a dry answer and the real one: new ids and the time. */
const comparable = (page: any) => ({
  ...page,
  id: undefined,
  created_at: undefined,
  updated_at: undefined,
  blocks: page.blocks?.map((b: any) => ({ ...b, id: undefined })),
});

describe('?dry_run=1', () => {
  it('POST /pages answers 201 with the page the real call makes, and writes nothing', async () => {
    const body = {
      name: 'Home',
      site_id: site.id,
      slug: 'home',
      blocks: [{ block_id: hero.id, placeholder_values: { title: 'Hi' } }],
    };
    const dryAnswer = await call('POST', '/api/v1/pages', body, dry);
    expect(dryAnswer.status).toBe(201);
    expect((await call('GET', '/api/v1/pages')).body.total).toBe(0);
    const real = await call('POST', '/api/v1/pages', body);
    expect(real.status).toBe(201);
    expect(comparable(dryAnswer.body)).toEqual(comparable(real.body));
    // The dry run did not take the slug: the real call just did.
    const again = await call('POST', '/api/v1/pages', body, dry);
    expect(again.status).toBe(409);
    expect(again.body.errors[0]).toMatchObject({ path: 'slug', code: 'conflict' });
  });

  it('answers the same errors as the real call', async () => {
    const bad = { name: 'Bad', site_id: site.id, blocks: [{ block_id: hero.id, placeholder_values: {} }] };
    const dryAnswer = await call('POST', '/api/v1/pages', bad, dry);
    const real = await call('POST', '/api/v1/pages', bad);
    expect(dryAnswer.status).toBe(400);
    expect(dryAnswer.body).toEqual(real.body);
  });

  it('PUT /pages/{id} and every page-block operation change nothing', async () => {
    const page = await createPage(t, user, {
      name: 'Ops',
      site_id: site.id,
      blocks: [
        { block_id: hero.id, placeholder_values: { title: 'A' } },
        { block_id: hero.id, placeholder_values: { title: 'B' } },
      ],
    });
    const before = await pageState(page.id);
    const [a, b] = before.blocks.map((x: { id: number }) => x.id);
    const base = `/api/v1/pages/${page.id}/blocks`;
    const operations: [string, string, unknown, number][] = [
      ['PUT', `/api/v1/pages/${page.id}`, { name: 'Renamed', blocks: [] }, 200],
      ['POST', base, { blocks: [{ block_id: hero.id, placeholder_values: { title: 'C' } }], position: 0 }, 201],
      ['PUT', `${base}/${a}`, { placeholder_values: { title: 'Changed' } }, 200],
      ['PUT', `${base}/${b}/move`, { position: 0 }, 200],
      ['DELETE', `${base}/${a}`, undefined, 204],
      ['PUT', `${base}/${a}/replace`, { block_id: hero.id, placeholder_values: { title: 'New' } }, 200],
      ['POST', `${base}/upgrade-all`, undefined, 200],
    ];
    for (const [method, path, body, status] of operations) {
      const answer = await call(method, path, body, dry);
      expect(answer.status, `${method} ${path}`).toBe(status);
      expect(await pageState(page.id), `${method} ${path}`).toEqual(before);
    }
    // The answer is what the real call answers.
    const moved = await call('PUT', `${base}/${b}/move`, { position: 0 }, dry);
    expect(moved.body.blocks.map((x: { id: number }) => x.id)).toEqual([b, a]);
    const real = await call('PUT', `${base}/${b}/move`, { position: 0 });
    expect(comparable(moved.body)).toEqual(comparable(real.body));
  });

  it('PUT /blocks/{id} tells the version_bump a change would cause, and keeps the block as it was', async () => {
    const block = await createBlock(t, user, { name: 'Card', schema_content: heroFields });
    const without = { schema_content: [heroFields[0]] };
    const dryAnswer = await call('PUT', `/api/v1/blocks/${block.id}`, without, dry);
    expect(dryAnswer.status).toBe(200);
    expect(dryAnswer.body.version_bump).toBe('major');
    expect(dryAnswer.body.block.version).toEqual({ major: 2, minor: 0 });
    const now = (await call('GET', `/api/v1/blocks/${block.id}`)).body;
    expect(now.version).toEqual({ major: 1, minor: 0 });
    expect(now.current_revision.schema_content).toHaveLength(2);
    expect((await call('PUT', `/api/v1/blocks/${block.id}`, { name: 'Card 2' }, dry)).body.version_bump).toBe('none');
    const real = await call('PUT', `/api/v1/blocks/${block.id}`, without);
    expect(real.body.version_bump).toBe('major');
  });

  it('does not hold up other requests after it, and dry_run=0 is the real call', async () => {
    const [dryAnswer, list] = await Promise.all([
      call('POST', '/api/v1/pages', { name: 'Parallel', site_id: site.id }, dry),
      call('GET', '/api/v1/pages'),
    ]);
    expect(dryAnswer.status).toBe(201);
    expect(list.status).toBe(200);
    const real = await call('POST', '/api/v1/pages', { name: 'Kept', site_id: site.id }, { dry_run: 0 });
    expect((await call('GET', `/api/v1/pages/${real.body.id}`)).status).toBe(200);
  });

  // A repository names what a foreign key refused by reading after the refusal; inside a dry run on
  // PostgreSQL the failed statement aborted the whole transaction, and that read answered 500.
  it('goes on after a statement of its work fails, as the real call does', async () => {
    const { database } = t.app;
    const read = await database.dryRun(async () => {
      const now = new Date().toISOString();
      await expect(
        sql`insert into sites (user_id, name, domain, created_at, updated_at) values (${2_000_000_000}, ${'x'}, ${'x.test'}, ${now}, ${now})`.execute(
          database.db,
        ),
      ).rejects.toThrow();
      return (await sql<{ id: number }>`select id from sites where id = ${site.id}`.execute(database.db)).rows;
    });
    expect(read).toEqual([{ id: site.id }]);
  });
});
