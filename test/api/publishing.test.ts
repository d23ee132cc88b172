import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage, feedFields, heroFields } from '../support/library.js';
import { unwrapInstances } from '../support/instances.js';

// Generous: under a loaded machine the fake provider can take over a second to answer.
const PROVIDER_TIMEOUT_MS = 4_000;
let t: TestApp;
let fake: FakeFourcms;
let user: TestUser;
let site: { id: number };
let hero: { id: number };
let feed: { id: number };

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'fake-token-123' });
  t = await startApp({ overrides: { providerTimeoutMs: PROVIDER_TIMEOUT_MS } });
  user = await newUser(t);
  site = await newSite(t, user);
  hero = await createBlock(t, user, {
    name: 'Hero',
    template: '<h1 class="hero">{{ title }}</h1>',
    css: '.hero{color:red}',
    js: 'window.hero = 1;',
    schema_content: heroFields,
  });
  feed = await createBlock(t, user, {
    name: 'Feed',
    template: '<ul>{% for a in news %}<li>{{ a.title }}</li>{% endfor %}</ul>',
    schema_content: feedFields,
  });
  const configured = await t.call('PUT', `/api/v1/sites/${site.id}/provider/fourcms`, {
    key: user.key,
    body: { base_url: fake.url, token: fake.token },
  });
  expect(configured.status).toBe(200);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const status = async (pageId: number) =>
  (await t.call('GET', `/api/v1/pages/${pageId}/publication`, { key: user.key })).body;
const publish = (pageId: number, body: unknown) =>
  t.call('POST', `/api/v1/pages/${pageId}/publish`, { key: user.key, body });
const articlePage = () =>
  createPage(t, user, {
    name: 'Launch',
    site_id: site.id,
    slug: `launch-${Math.random().toString(36).slice(2, 8)}`,
    blocks: [
      { block_id: hero.id, placeholder_values: { title: 'We <3 blocks' } },
      { block_id: feed.id },
      { block_id: hero.id, placeholder_values: { title: 'Again' } },
    ],
  });

describe('provider settings', () => {
  it('stores the token without ever returning it', async () => {
    const record = await t.call('GET', `/api/v1/sites/${site.id}/provider`, { key: user.key });
    expect(record.body).toEqual({
      type: 'fourcms',
      base_url: fake.url,
      token_set: true,
      updated_at: expect.any(String),
    });
    expect(record.text).not.toContain(fake.token);
  });

  it('refuses private and link-local targets when the guard is on', async () => {
    const guarded = await startApp({ env: { PROVIDER_ALLOW_PRIVATE: '0' } });
    try {
      const owner = await newUser(guarded);
      const s = await newSite(guarded, owner);
      for (const base_url of [
        'http://127.0.0.1/',
        'http://169.254.169.254/',
        'http://[::1]:8080/',
        'http://10.1.2.3/',
      ]) {
        const r = await guarded.call('PUT', `/api/v1/sites/${s.id}/provider/fourcms`, {
          key: owner.key,
          body: { base_url, token: 't' },
        });
        expect(r.status, base_url).toBe(400);
        expect(r.body.errors[0].path).toBe('base_url');
      }
      const bad = await guarded.call('PUT', `/api/v1/sites/${s.id}/provider/fourcms`, {
        key: owner.key,
        body: { base_url: 'ftp://example.com', token: 't' },
      });
      expect(bad.status).toBe(400);
      expect((await guarded.call('GET', `/api/v1/sites/${s.id}/provider`, { key: owner.key })).body.token_set).toBe(
        false,
      );
    } finally {
      await guarded.close();
    }
  });
});

describe('previews', () => {
  it('renders the pinned revisions with stub data in bound slots, CSS and JS once, in a sandbox', async () => {
    const page = await articlePage();
    const r = await t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/html/);
    expect(r.headers.get('content-security-policy')).toBe('sandbox allow-scripts');
    expect(r.text).toContain('<h1 class="hero">We &lt;3 blocks</h1>');
    // The feed slot is unbound: it takes its default (articles.latest), whose result type's stub is shown.
    expect(r.text).toContain('<li>How we redesigned our homepage</li>');
    expect(r.text.match(/\.hero\{color:red\}/g)).toHaveLength(1);
    expect(r.text.match(/window\.hero = 1;/g)).toHaveLength(1);
    const before = fake.requests.length;
    await t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key });
    expect(fake.requests.length).toBe(before);

    // A later revision does not change what the pinned instance renders.
    await t.call('PUT', `/api/v1/blocks/${hero.id}`, { key: user.key, body: { template: '<h2>{{ title }}</h2>' } });
    expect((await t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key })).text).toContain(
      '<h1 class="hero">',
    );
  });

  it("shows as many stub items as the binding's limit asks for, as live data would", async () => {
    const items = async (bindings?: unknown) => {
      const page = await createPage(t, user, {
        name: 'Feed only',
        site_id: site.id,
        blocks: [{ block_id: feed.id, ...(bindings !== undefined && { bindings }) }],
      });
      const r = await t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key });
      expect(r.status).toBe(200);
      return r.text.match(/<li>/g)?.length ?? 0;
    };
    // The slot's default binding asks for 3, the stub's size; an instance that asks for 2 or 1 gets 2 or 1.
    expect(await items()).toBe(3);
    expect(await items({ news: { source: 'articles.latest', params: { limit: 2 } } })).toBe(2);
    expect(await items({ news: { source: 'articles.latest', params: { limit: 1 } } })).toBe(1);
    // More than the stub holds shows the whole stub; no limit shows it whole too.
    expect(await items({ news: { source: 'articles.latest', params: { limit: 10 } } })).toBe(3);
    expect(await items({ news: { source: 'articles.by_rubric', params: { category_id: 2 } } })).toBe(3);
  });

  it('previews one block with given values, and reports bad values at their path', async () => {
    const ok = await t.call('POST', `/api/v1/blocks/${feed.id}/preview`, {
      key: user.key,
      body: {
        placeholder_values: { heading: 'x' },
        bindings: { news: { source: 'articles.by_rubric', params: { category_id: 2 } } },
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toBe('sandbox allow-scripts');
    expect(ok.text).toContain('<li>Ten blocks every landing page needs</li>');
    const bad = await t.call('POST', `/api/v1/blocks/${hero.id}/preview`, {
      key: user.key,
      body: { placeholder_values: { title: 5 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { path: 'placeholder_values.title', message: expect.any(String), code: 'type', expected: 'string' },
    ]);
  });

  it('stops a hostile template with a clear error instead of hanging', async () => {
    const hostile = await createBlock(t, user, {
      name: 'Loop',
      template: '{% for i in (1..100000000) %}x{% endfor %}',
    });
    const page = await createPage(t, user, { name: 'Hostile', site_id: site.id, blocks: [{ block_id: hostile.id }] });
    const started = Date.now();
    const r = await t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key });
    // Given up at the time-out, not left hanging until the test's own limit.
    expect(Date.now() - started).toBeLessThan(PROVIDER_TIMEOUT_MS + 5_000);
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/limit/i);
  });

  it('renders children inside their layout block, in order', async () => {
    const columns = await createBlock(t, user, {
      name: 'Columns',
      kind: 'layout',
      template: '<div class="cols">{{ children }}</div>',
      css: '.cols{display:flex}',
    });
    // Its own child block: another test gives the shared hero block a new revision.
    const cell = await createBlock(t, user, {
      name: 'Cell',
      template: '<p>{{ title }}</p>',
      schema_content: heroFields,
    });
    const page = await createPage(t, user, { name: 'Nested', site_id: site.id, blocks: [{ block_id: columns.id }] });
    const layoutId = page.blocks[0].id;
    await t.call('POST', `/api/v1/pages/${page.id}/blocks`, {
      key: user.key,
      body: {
        blocks: [
          { block_id: cell.id, placeholder_values: { title: 'Left' }, parent_page_block_id: layoutId },
          { block_id: cell.id, placeholder_values: { title: 'Right' }, parent_page_block_id: layoutId },
        ],
      },
    });
    const html = (await t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key })).text;
    expect(unwrapInstances(html)).toMatch(/<div class="cols"><p>Left<\/p>\s*<p>Right<\/p><\/div>/);
  });

  it('renders markdown blocks as sanitized GFM', async () => {
    const md = await createBlock(t, user, {
      name: 'Body',
      block_type: 'markdown',
      template: '<article>{{ _markdown }}</article>',
    });
    const page = await createPage(t, user, {
      name: 'Md',
      site_id: site.id,
      blocks: [
        {
          block_id: md.id,
          placeholder_values: {
            _markdown:
              '# Title\n\n~~old~~ **new** [x](javascript:alert(1))\n\n<script>alert(1)</script>\n\n| a | b |\n|---|---|\n| 1<br>2 | 3 |',
          },
        },
      ],
    });
    const html = (await t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key })).text;
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<del>old</del>');
    expect(html).toContain('<strong>new</strong>');
    expect(html).toMatch(/<td>1<br \/?>2<\/td>/);
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('<script>alert(1)</script>');
  });
});

describe('publication', () => {
  it('publishes an article once, then updates it, keeping metadata unless sent', async () => {
    const page = await articlePage();
    expect(await status(page.id)).toEqual({
      is_published: false,
      external_id: null,
      external_slug: null,
      published_at: null,
      updated_at: null,
      last_error: null,
      last_error_at: null,
      published_version: null,
      has_unpublished_changes: false,
      scheduled_at: null,
      last_scheduled_run: null,
    });
    const published = await publish(page.id, { rubric_ids: [3], meta_title: 'Launch day', preview_text: 'Short' });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({
      is_published: true,
      external_id: expect.any(String),
      published_at: expect.any(String),
    });
    const doc = fake.documents.get(published.body.external_id)!;
    expect(doc).toMatchObject({
      kind: 'article',
      title: 'Launch',
      rubric_ids: [3],
      meta_title: 'Launch day',
      preview_text: 'Short',
    });
    expect(doc.html).toContain('We &lt;3 blocks');
    expect(doc.blocks).toHaveLength(3);
    expect(fake.requests.at(-1)!.authorization).toBe(`Bearer ${fake.token}`);

    const again = await publish(page.id, { rubric_ids: [3] });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/already published.*publish-update/);

    await t.call('PUT', `/api/v1/pages/${page.id}/blocks/${page.blocks[0].id}`, {
      key: user.key,
      body: { placeholder_values: { title: 'Updated title' } },
    });
    const updated = await t.call('POST', `/api/v1/pages/${page.id}/publish-update`, { key: user.key, body: {} });
    expect(updated.status).toBe(200);
    const put = fake.requests.at(-1)! as { method: string; body: { html: string } };
    expect(put.method).toBe('PUT');
    expect(put.body.html).toContain('Updated title');
    expect(put.body).not.toHaveProperty('meta_title');
    expect(put.body).not.toHaveProperty('rubric_ids');
    expect(fake.documents.size).toBeGreaterThan(0);
  });

  it.each([
    ['no rubric_ids', {}, 'rubric_ids'],
    ['an empty rubric_ids', { rubric_ids: [] }, 'rubric_ids'],
    ['strings in rubric_ids', { rubric_ids: ['a'] }, 'rubric_ids[0]'],
  ])('refuses %s and changes nothing', async (_, body, path) => {
    const page = await articlePage();
    const documents = fake.documents.size;
    const r = await publish(page.id, body);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toBe(path);
    expect((await status(page.id)).is_published).toBe(false);
    expect(fake.documents.size).toBe(documents);
  });

  it('refuses publish-update before publish, a page without a site, and foreign or missing pages', async () => {
    const page = await articlePage();
    const early = await t.call('POST', `/api/v1/pages/${page.id}/publish-update`, { key: user.key, body: {} });
    expect(early.status).toBe(400);
    expect(early.body.error).toMatch(/never published/);

    const doomed = await newSite(t, user, 'Doomed');
    const orphan = await createPage(t, user, { name: 'Orphan', site_id: doomed.id });
    await t.call('DELETE', `/api/sites/${doomed.id}`, { cookie: user.cookie });
    const noSite = await publish(orphan.id, { rubric_ids: [1] });
    expect(noSite.status).toBe(400);
    expect(noSite.body.error).toMatch(/no site/);

    const other = await newUser(t);
    expect(
      (await t.call('POST', `/api/v1/pages/${page.id}/publish`, { key: other.key, body: { rubric_ids: [1] } })).status,
    ).toBe(404);
    expect((await publish(999999, { rubric_ids: [1] })).status).toBe(404);
  });

  it('publishes templates with an empty body, and refuses article fields for them', async () => {
    const template = await createPage(t, user, {
      name: 'Tpl',
      site_id: site.id,
      kind: 'template',
      blocks: [{ block_id: hero.id, placeholder_values: { title: 't' } }],
    });
    const withRubrics = await publish(template.id, { rubric_ids: [1] });
    expect(withRubrics.status).toBe(400);
    const ok = await publish(template.id, {});
    expect(ok.status).toBe(200);
    const doc = fake.documents.get(ok.body.external_id)!;
    expect(doc.kind).toBe('template');
    expect(doc).not.toHaveProperty('rubric_ids');
  });

  it.each(['500', '401', 'malformed', 'close'] as const)(
    'answers 502 when the provider fails (%s) and changes nothing',
    async (mode) => {
      const page = await articlePage();
      const documents = fake.documents.size;
      fake.failNext(mode);
      const r = await publish(page.id, { rubric_ids: [1] });
      expect(r.status).toBe(502);
      expect(r.text).not.toContain(fake.token);
      if (mode === '500') expect(r.body.error).toContain('fake provider failure');
      if (mode === '401') expect(r.body.error).toContain('invalid token');
      expect(await status(page.id)).toMatchObject({ is_published: false, external_id: null });
      expect(fake.documents.size).toBe(documents);
      // The claim is gone: the next attempt goes through.
      expect((await publish(page.id, { rubric_ids: [1] })).status).toBe(200);
    },
  );

  it('answers 502 when nothing listens at the provider, and when it hangs past the time-out', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const deadSite = await newSite(t, user, 'Dead provider');
    await t.call('PUT', `/api/v1/sites/${deadSite.id}/provider/fourcms`, {
      key: user.key,
      body: { base_url: `http://127.0.0.1:${port}`, token: 'x' },
    });
    const page = await createPage(t, user, {
      name: 'Dead',
      site_id: deadSite.id,
      blocks: [{ block_id: hero.id, placeholder_values: { title: 'x' } }],
    });
    const dead = await publish(page.id, { rubric_ids: [1] });
    expect(dead.status).toBe(502);
    expect((await status(page.id)).is_published).toBe(false);

    const hanging = await articlePage();
    fake.failNext('hang');
    const started = Date.now();
    const r = await publish(hanging.id, { rubric_ids: [1] });
    expect(r.status).toBe(502);
    // Given up at the time-out, not left hanging until the test's own limit.
    expect(Date.now() - started).toBeLessThan(PROVIDER_TIMEOUT_MS + 5_000);
    expect((await status(hanging.id)).is_published).toBe(false);
  });

  it('creates one document when two publish requests race', async () => {
    const page = await articlePage();
    const documents = fake.documents.size;
    const [a, b] = await Promise.all([publish(page.id, { rubric_ids: [1] }), publish(page.id, { rubric_ids: [1] })]);
    // One wins; the other finds it in progress (409) or already published (400).
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([400, 409]).toContain(statuses[1]);
    expect(fake.documents.size).toBe(documents + 1);
  });
});
