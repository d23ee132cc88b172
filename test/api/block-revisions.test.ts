import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_URL, startApp, type TestApp } from '../support/app.js';
import { admin, newUser, type TestUser } from '../support/factories.js';
import { createBlock, heroFields } from '../support/library.js';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let boss: TestUser;

beforeAll(async () => {
  t = await startApp();
  owner = await newUser(t);
  stranger = await newUser(t);
  boss = await admin(t);
});
afterAll(() => t.close());

const update = async (id: number, body: Record<string, unknown>) => {
  const r = await t.call('PUT', `/api/v1/blocks/${id}`, { key: owner.key, body });
  if (r.status !== 200) throw new Error(`update failed: ${r.status} ${r.text}`);
  return r.body;
};

/** A block at 2.1: 1.0 → 1.1 (template) → 2.0 (a field removed) → 2.1 (css); a metadata change makes none. */
async function blockWithHistory() {
  const block = await createBlock(t, owner, { name: 'History', schema_content: heroFields, changelog: 'first' });
  await update(block.id, { template: '<h1>{{ title }}</h1>', changelog: 'a heading' });
  await update(block.id, { schema_content: heroFields.slice(0, 1), changelog: 'items dropped' });
  await update(block.id, { description: 'metadata only' });
  await update(block.id, { css: 'h1{color:red}' });
  return block;
}

describe('GET /blocks/{id}/revisions', () => {
  it('lists every revision newest first with its version, bump, changelog and date', async () => {
    const block = await blockWithHistory();
    const r = await t.call('GET', `/api/v1/blocks/${block.id}/revisions`, { key: owner.key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 4, limit: 50, offset: 0 });
    expect(r.body.data.map((e: any) => [`${e.version.major}.${e.version.minor}`, e.version_bump, e.changelog])).toEqual(
      [
        ['2.1', 'minor', null],
        ['2.0', 'major', 'items dropped'],
        ['1.1', 'minor', 'a heading'],
        ['1.0', null, 'first'],
      ],
    );
    for (const entry of r.body.data) {
      expect(Object.keys(entry).sort()).toEqual(['changelog', 'created_at', 'id', 'version', 'version_bump']);
      expect(Number.isNaN(Date.parse(entry.created_at))).toBe(false);
    }
    const current = await t.call('GET', `/api/v1/blocks/${block.id}`, { key: owner.key });
    expect(r.body.data[0].id).toBe(current.body.current_revision.id);
  });

  it('knows the bump of the oldest revision on a page from the one before it', async () => {
    const block = await blockWithHistory();
    const second = await t.call('GET', `/api/v1/blocks/${block.id}/revisions`, {
      key: owner.key,
      query: { limit: 2, offset: 1 },
    });
    expect(second.body).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect(second.body.data.map((e: any) => e.version_bump)).toEqual(['major', 'minor']);
    const last = await t.call('GET', `/api/v1/blocks/${block.id}/revisions`, {
      key: owner.key,
      query: { limit: 1, offset: 3 },
    });
    expect(last.body.data.map((e: any) => e.version_bump)).toEqual([null]);
    const beyond = await t.call('GET', `/api/v1/blocks/${block.id}/revisions`, {
      key: owner.key,
      query: { offset: 10 },
    });
    expect(beyond.body).toMatchObject({ data: [], total: 4 });
  });

  it('answers an empty history for a block created without content', async () => {
    const bare = await t.call('POST', '/api/v1/blocks', { key: owner.key, body: { name: 'Bare' } });
    const r = await t.call('GET', `/api/v1/blocks/${bare.body.id}/revisions`, { key: owner.key });
    expect(r.body).toMatchObject({ data: [], total: 0 });
  });

  it('follows the visibility of the block: 403 to another user, 404 for none, global ones to everyone', async () => {
    const block = await createBlock(t, owner, { name: 'Private' });
    const foreign = await t.call('GET', `/api/v1/blocks/${block.id}/revisions`, { key: stranger.key });
    expect(foreign.status).toBe(403);
    expect(typeof foreign.body.error).toBe('string');
    const missing = await t.call('GET', '/api/v1/blocks/999999999/revisions', { key: owner.key });
    expect(missing.status).toBe(404);
    const global = await t.call('POST', '/api/admin/blocks', {
      cookie: boss.cookie,
      body: { name: 'Global history', template: '<p></p>' },
    });
    expect(global.status).toBe(201);
    const seen = await t.call('GET', `/api/v1/blocks/${global.body.id}/revisions`, { key: stranger.key });
    expect(seen.status).toBe(200);
    expect(seen.body.data).toHaveLength(1);
  });

  it('refuses a limit out of range at its path', async () => {
    const block = await createBlock(t, owner, { name: 'Bounds' });
    const r = await t.call('GET', `/api/v1/blocks/${block.id}/revisions`, { key: owner.key, query: { limit: 0 } });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toBe('limit');
  });

  it('is served on the cookie contour with the same answer', async () => {
    const block = await blockWithHistory();
    const key = await t.call('GET', `/api/v1/blocks/${block.id}/revisions`, { key: owner.key });
    const cookie = await t.call('GET', `/api/blocks/${block.id}/revisions`, {
      cookie: owner.cookie,
      headers: { origin: PUBLIC_URL },
    });
    expect(cookie.status).toBe(200);
    expect(cookie.body).toEqual(key.body);
    const foreign = await t.call('GET', `/api/blocks/${block.id}/revisions`, { cookie: stranger.cookie });
    expect(foreign.status).toBe(403);
    const anonymous = await t.call('GET', `/api/blocks/${block.id}/revisions`);
    expect(anonymous.status).toBe(401);
  });
});

describe('removed_fields of PUT /blocks/{id}', () => {
  it('names the removed and renamed fields at any depth, also on a dry run, which writes nothing', async () => {
    const block = await createBlock(t, owner, { name: 'Fields', schema_content: heroFields });
    const renamed = [
      { ...heroFields[0], name: 'heading' },
      { name: 'items', type: 'array', items: { type: 'object', fields: [] } },
    ];
    const dry = await t.call('PUT', `/api/v1/blocks/${block.id}`, {
      key: owner.key,
      query: { dry_run: 1 },
      body: { schema_content: renamed },
    });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ version_bump: 'major', removed_fields: ['title', 'items[].caption'] });
    const unchanged = await t.call('GET', `/api/v1/blocks/${block.id}`, { key: owner.key });
    expect(unchanged.body.version).toEqual({ major: 1, minor: 0 });

    const minor = await update(block.id, { schema_content: [...heroFields, { name: 'extra', type: 'string' }] });
    expect(minor).toMatchObject({ version_bump: 'minor', removed_fields: [] });
    const none = await update(block.id, { name: 'Fields renamed' });
    expect(none).toMatchObject({ version_bump: 'none', removed_fields: [] });
  });
});

// Each update reads the block, then writes its next version: two at once once made one version twice
// (PostgreSQL answered 500 on the unique key, found by test/model's parallel steps).
describe('updates of one block at once', () => {
  it('each answer 200, and their versions follow one another', async () => {
    const block = await createBlock(t, owner, { name: 'Raced', schema_content: heroFields });
    for (let round = 0; round < 4; round++) {
      const bodies = [
        { css: `.a${round} { color: red }` },
        { css: `.b${round} { color: blue }` },
        { css: `.b${round} { color: blue }` },
      ];
      const answers = await Promise.all(
        bodies.map((body, i) =>
          t.call('PUT', `/api/v1/blocks/${block.id}`, {
            key: owner.key,
            body,
            ...(i === 2 && { query: { dry_run: 1 } }),
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    }
    const revisions = await t.call('GET', `/api/v1/blocks/${block.id}/revisions`, {
      key: owner.key,
      query: { limit: 100 },
    });
    expect(revisions.status).toBe(200);
    const versions = revisions.body.data.map(
      (r: { version: { major: number; minor: number } }) => `${r.version.major}.${r.version.minor}`,
    );
    expect(new Set(versions).size).toBe(versions.length);
    expect(versions).toContain('1.8');
  });
});
