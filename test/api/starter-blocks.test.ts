import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTER_BLOCKS, STARTER_OWNER_EMAIL } from '../../src/db/migrations/0007-starter-blocks.js';
import { bindingSlots, validateSchemaContent, type FieldDefinition } from '../../src/modules/blocks/schema/index.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';

// The global blocks a fresh installation starts with, read back through the
// service: they must pass the same checks as a block an author saves, and render.

let t: TestApp;
let user: TestUser;
const byName = new Map<string, any>();

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  const list = await t.call('GET', '/api/v1/blocks', { key: user.key, query: { limit: 200 } });
  for (const block of list.body.data) if (block.scope === 'global') byName.set(block.name, block);
});
afterAll(() => t.close());

const block = (suffix: string) => {
  const found = byName.get(`Starter: ${suffix}`);
  if (!found) throw new Error(`no starter block "${suffix}" in ${[...byName.keys()].join(', ')}`);
  return found;
};

describe('the starter blocks', () => {
  it('are global blocks at 1.0 that every new user sees: hero, text, markdown, latest articles, two columns', () => {
    expect([...byName.keys()].sort()).toEqual(STARTER_BLOCKS.map((b) => b.name).sort());
    for (const b of byName.values()) expect(b.version, b.name).toEqual({ major: 1, minor: 0 });
    expect(block('two columns').kind).toBe('layout');
    expect(block('markdown').block_type).toBe('markdown');
  });

  it('pass the real block validation, and record the sources their bindings allow', async () => {
    const { db } = t.app.database;
    const known = {
      sources: new Set((await db.selectFrom('data_sources').select('id').execute()).map((s) => s.id)),
      resultTypes: new Set((await db.selectFrom('data_result_types').select('id').execute()).map((r) => r.id)),
    };
    for (const { id, name } of byName.values()) {
      const full = await t.call('GET', `/api/v1/blocks/${id}`, { key: user.key });
      const fields = full.body.current_revision.schema_content;
      const checked = validateSchemaContent(fields, known);
      expect(checked, `${name}: ${JSON.stringify(checked)}`).toMatchObject({ ok: true });
      const revision = await t.app.database.db
        .selectFrom('block_revision_sources')
        .innerJoin('blocks', 'blocks.current_revision_id', 'block_revision_sources.revision_id')
        .select('block_revision_sources.source_id')
        .where('blocks.id', '=', id)
        .execute();
      const expected = bindingSlots(fields as FieldDefinition[]).flatMap((slot) => slot.allowed_sources);
      expect(revision.map((r) => r.source_id).sort(), name).toEqual([...new Set(expected)].sort());
    }
    const slots = (
      await t.call('GET', `/api/v1/blocks/${block('latest articles').id}/placeholder-schema`, { key: user.key })
    ).body.binding_slots;
    expect(slots).toEqual([
      expect.objectContaining({ name: 'articles', allowed_sources: expect.arrayContaining(['articles.latest']) }),
    ]);
  });

  it('render their own example, with stub data in the bound slot', async () => {
    const expectations: Record<string, RegExp> = {
      hero: /<h1>Welcome<\/h1>/,
      text: /Write your text here\./,
      markdown: /<article class="pb-markdown">/,
      'latest articles': /How we redesigned our homepage/,
      'two columns': /<div class="pb-columns">/,
    };
    for (const [suffix, pattern] of Object.entries(expectations)) {
      const { id } = block(suffix);
      const schema = await t.call('GET', `/api/v1/blocks/${id}/placeholder-schema`, { key: user.key });
      expect(schema.status).toBe(200);
      const preview = await t.call('POST', `/api/v1/blocks/${id}/preview`, {
        key: user.key,
        body: { placeholder_values: schema.body.example },
      });
      expect(preview.status, `${suffix}: ${preview.text}`).toBe(200);
      expect(preview.text, suffix).toMatch(pattern);
    }
  });

  it('make a first page in one request: a hero, two columns of text and markdown, and the latest articles', async () => {
    const site = await newSite(t, user);
    const page = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: {
        name: 'First page',
        site_id: site.id,
        slug: 'first',
        blocks: [
          { block_id: block('hero').id, placeholder_values: { title: 'Hello <world>', subtitle: 'A start' } },
          { block_id: block('two columns').id },
          {
            block_id: block('latest articles').id,
            bindings: { articles: { source: 'articles.latest', params: { limit: 2 } } },
          },
        ],
      },
    });
    expect(page.status, page.text).toBe(201);
    const layout = (await t.call('GET', `/api/v1/pages/${page.body.id}?with_blocks=1`, { key: user.key })).body
      .blocks[1];
    const nested = await t.call('POST', `/api/v1/pages/${page.body.id}/blocks`, {
      key: user.key,
      body: {
        blocks: [
          { block_id: block('text').id, parent_page_block_id: layout.id, placeholder_values: { body: 'Left column' } },
          {
            block_id: block('markdown').id,
            parent_page_block_id: layout.id,
            placeholder_values: { _markdown: '## Right column\n\n- one\n- two' },
          },
        ],
      },
    });
    expect(nested.status, nested.text).toBe(201);
    const preview = await t.call('GET', `/api/v1/pages/${page.body.id}/preview`, { key: user.key });
    expect(preview.status).toBe(200);
    const html = preview.text;
    expect(html).toContain('<h1>Hello &lt;world&gt;</h1>');
    expect(html).toMatch(/<div class="pb-columns">[\s\S]*Left column[\s\S]*<h2[^>]*>Right column<\/h2>[\s\S]*<\/div>/);
    expect(html).toContain('How we redesigned our homepage');
  });

  it('are found by search', async () => {
    const r = await t.call('GET', '/api/v1/search/blocks', { key: user.key, query: { q: 'hero' } });
    expect(r.body.data.map((b: { name: string }) => b.name)).toContain('Starter: hero');
  });

  it('are changed by an author only through a fork: a user cannot edit them', async () => {
    const r = await t.call('PUT', `/api/v1/blocks/${block('hero').id}`, { key: user.key, body: { name: 'Mine' } });
    expect(r.status).toBe(403);
    const fork = await t.call('POST', `/api/v1/blocks/${block('hero').id}/fork`, { key: user.key, body: {} });
    expect(fork.status).toBe(201);
    expect(fork.body.scope).toBe('user');
  });
});

describe('their owner', () => {
  it('is a blocked system account that cannot sign in with any password', async () => {
    const row = await t.app.database.db
      .selectFrom('users')
      .select(['password_hash', 'is_admin', 'is_blocked'])
      .where('email', '=', STARTER_OWNER_EMAIL)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBe('!');
    expect(Boolean(row.is_blocked)).toBe(true);
    expect(Boolean(row.is_admin)).toBe(false);
    for (const password of ['!', '', 'password-123']) {
      const login = await t.call('POST', '/api/auth/login', { body: { email: STARTER_OWNER_EMAIL, password } });
      expect([400, 401], password).toContain(login.status);
    }
    const register = await t.call('POST', '/api/auth/register', {
      body: { email: STARTER_OWNER_EMAIL, password: 'password-123' },
    });
    expect(register.status).not.toBe(201);
  });
});
