/**
 * Issue 29, points 1 and 2, through the API on both databases: each instance
 * looks like its revision in what is published (HTML, CSS, JS); a template
 * that does not parse is never saved; fields left out render with their
 * revision's defaults, the stored values unchanged.
 */
import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

let t: TestApp;
let fake: FakeFourcms;
let user: TestUser;
let site: { id: number };

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'evolution-token' });
  t = await startApp({ overrides: { providerTimeoutMs: 4_000 } });
  user = await newUser(t);
  site = await newSite(t, user);
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

const call = (method: string, path: string, body?: unknown, query?: Record<string, number>) =>
  t.call(method, path, { key: user.key, ...(body !== undefined && { body }), ...(query && { query }) });
const revisionsIn = (html: string) => [...html.matchAll(/<pb-instance data-pb-rev="(\d+)"/g)].map((m) => Number(m[1]));

describe('each instance looks like its revision, in what is published', () => {
  it('sends each instance in its revision’s element, each revision’s CSS once and scoped, its JS in a block', async () => {
    const block = await createBlock(t, user, {
      name: 'Notice',
      template: '<p class="notice">{{ text }}</p>',
      css: '.notice { color: red }',
      js: 'const notice = 1;',
      schema_content: [{ name: 'text', type: 'string', required: true }],
    });
    const page = await createPage(t, user, {
      name: 'Two revisions',
      site_id: site.id,
      slug: 'two-revisions',
      blocks: ['a', 'b', 'c'].map((text) => ({ block_id: block.id, placeholder_values: { text } })),
    });
    expect((await call('PUT', `/api/v1/blocks/${block.id}`, { css: '.notice { color: blue }' })).status).toBe(200);
    const upgraded = await call('POST', `/api/v1/pages/${page.id}/blocks/${page.blocks[0].id}/upgrade`);
    expect(upgraded.status).toBe(200);

    const published = await call('POST', `/api/v1/pages/${page.id}/publish`, { rubric_ids: [1] });
    expect(published.status).toBe(200);
    const doc = fake.documents.get(published.body.external_id)!;
    const [newer, older, again] = revisionsIn(String(doc.html));
    expect(older).toBe(again);
    expect(newer).not.toBe(older);
    expect(doc.html).toBe(
      [
        `<pb-instance data-pb-rev="${newer}" style="display:contents"><p class="notice">a</p></pb-instance>`,
        `<pb-instance data-pb-rev="${older}" style="display:contents"><p class="notice">b</p></pb-instance>`,
        `<pb-instance data-pb-rev="${older}" style="display:contents"><p class="notice">c</p></pb-instance>`,
      ].join('\n'),
    );
    // Two instances of one revision share one copy of its CSS; each revision's reaches its own instances only.
    expect(doc.css).toBe(
      `:where([data-pb-rev="${newer}"]) .notice { color: blue }\n:where([data-pb-rev="${older}"]) .notice { color: red }`,
    );
    // Both revisions declare `const notice`: each in a block of its own, or the page's script would not run at all.
    const js = `const notice = 1;`;
    expect(doc.js).toBe(
      [newer, older]
        .map((r) => `{\nconst pbInstances = document.querySelectorAll('[data-pb-rev="${r}"]');\n${js}\n}`)
        .join('\n'),
    );
    // One script that compiles (it is not run here).
    expect(() => new Script(String(doc.js))).not.toThrow();
  });
});

describe('a template that LiquidJS cannot parse is never saved', () => {
  const broken = '<ul>{% for e in events %}<li>{{ e.title }}</li></ul>';
  const expectAtTemplate = (r: { status: number; body: any }, line: number, column: number) => {
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      {
        path: 'template',
        code: 'invalid',
        line,
        column,
        message: expect.stringMatching(
          new RegExp(`^Liquid syntax error at line ${line}, column ${column}: .*not closed`),
        ),
      },
    ]);
  };

  it('is 422 at template with its line and column on create, and in the dry run, and nothing is stored', async () => {
    const before = (await call('GET', '/api/v1/blocks')).body.total;
    expectAtTemplate(await call('POST', '/api/v1/blocks', { name: 'Broken', template: broken }), 1, 5);
    expectAtTemplate(await call('POST', '/api/v1/blocks', { name: 'Broken', template: broken }, { dry_run: 1 }), 1, 5);
    expect((await call('GET', '/api/v1/blocks')).body.total).toBe(before);
  });

  it('is 422 at template on update and its dry run; the block keeps its version', async () => {
    const block = await createBlock(t, user, { name: 'Fine', template: '<p>{{ x }}</p>' });
    const twoLines = '<p>{{ x }}</p>\n  {{ y | }';
    expectAtTemplate(await call('PUT', `/api/v1/blocks/${block.id}`, { template: twoLines }), 2, 3);
    expectAtTemplate(await call('PUT', `/api/v1/blocks/${block.id}`, { template: twoLines }, { dry_run: 1 }), 2, 3);
    const read = (await call('GET', `/api/v1/blocks/${block.id}`)).body;
    expect(read.version).toEqual({ major: 1, minor: 0 });
    expect(read.current_revision.template_content).toBe('<p>{{ x }}</p>');
  });
});

describe('a field left out renders with its default from the pinned revision', () => {
  const fields = [
    { name: 'title', type: 'string', required: true },
    { name: 'background', type: 'color', default: '#123456' },
    { name: 'cta', type: 'object', fields: [{ name: 'label', type: 'string', default: 'Read more' }] },
  ];
  const template = '<section style="background: {{ background }}"><h1>{{ title }}</h1><a>{{ cta.label }}</a></section>';

  it('in the preview and the publication, stored values unchanged; the pinned revision’s default, not the newest', async () => {
    const block = await createBlock(t, user, { name: 'Hero with defaults', template, schema_content: fields });
    const page = await createPage(t, user, {
      name: 'Defaults',
      site_id: site.id,
      slug: 'defaults',
      blocks: [
        { block_id: block.id, placeholder_values: { title: 'Only a title' } },
        { block_id: block.id, placeholder_values: { title: 'Given', background: '#ffffff', cta: { label: 'Go' } } },
        { block_id: block.id, placeholder_values: { title: 'Half an object', cta: {} } },
      ],
    });
    // A newer revision with other defaults: the instances stay pinned to the first, and render its defaults.
    const newer = fields.map((f) => (f.name === 'background' ? { ...f, default: '#abcdef' } : f));
    expect((await call('PUT', `/api/v1/blocks/${block.id}`, { schema_content: newer })).status).toBe(200);

    const preview = (await call('GET', `/api/v1/pages/${page.id}/preview`)).text;
    expect(preview).toContain('<section style="background: #123456"><h1>Only a title</h1><a>Read more</a></section>');
    expect(preview).toContain('<section style="background: #ffffff"><h1>Given</h1><a>Go</a></section>');
    expect(preview).toContain('<section style="background: #123456"><h1>Half an object</h1><a>Read more</a></section>');
    expect(preview).not.toContain('#abcdef');

    const published = await call('POST', `/api/v1/pages/${page.id}/publish`, { rubric_ids: [1] });
    expect(published.status).toBe(200);
    const doc = fake.documents.get(published.body.external_id)!;
    expect(doc.html).toContain('<section style="background: #123456"><h1>Only a title</h1><a>Read more</a></section>');
    // What is stored, read and sent as the instance's values is what was sent.
    expect((doc.blocks as any[]).map((b) => b.placeholder_values)).toEqual([
      { title: 'Only a title' },
      { title: 'Given', background: '#ffffff', cta: { label: 'Go' } },
      { title: 'Half an object', cta: {} },
    ]);
    const read = (await call('GET', `/api/v1/pages/${page.id}`, undefined, { with_blocks: 1 })).body;
    expect(read.blocks[0].placeholder_values).toEqual({ title: 'Only a title' });
  });

  it('in a block preview', async () => {
    const block = await createBlock(t, user, { name: 'Preview defaults', template, schema_content: fields });
    const r = await call('POST', `/api/v1/blocks/${block.id}/preview`, { placeholder_values: { title: 'T' } });
    expect(r.status).toBe(200);
    expect(r.text).toContain('<section style="background: #123456"><h1>T</h1><a>Read more</a></section>');
  });
});
