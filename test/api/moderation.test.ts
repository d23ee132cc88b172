import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { admin, newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

/**
 * Moderation sees what was submitted, and approves exactly that: a
 * submission keeps its revision (template, CSS, JS, fields) and the block's
 * texts, and the approval copies them, whatever the author changed since.
 */
let t: TestApp;
let fake: FakeFourcms;
let author: TestUser;
let publisher: TestUser;
let boss: TestUser;

beforeAll(async () => {
  fake = await startFakeFourcms();
  t = await startApp();
  [author, publisher, boss] = await Promise.all([newUser(t), newUser(t), admin(t)]);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const SUBMITTED = {
  name: 'Ticker',
  description: 'A line of news.',
  template: '<p class="ticker">{{ headline }}</p>',
  css: '.ticker { color: navy; }',
  js: 'window.tickerSource = "submitted";',
  schema_content: [{ name: 'headline', type: 'string', required: true, default: 'Fresh news' }],
};

async function submitted(overrides: Record<string, unknown> = {}) {
  const block = await createBlock(t, author, { ...SUBMITTED, ...overrides });
  const submission = await t.call('POST', `/api/v1/blocks/${block.id}/submit`, { key: author.key });
  expect(submission.status).toBe(201);
  return { block, submission: submission.body as { id: number } };
}

const changeBlock = async (id: number, body: Record<string, unknown>) => {
  const changed = await t.call('PUT', `/api/v1/blocks/${id}`, { key: author.key, body });
  expect(changed.status).toBe(200);
  return changed.body;
};

describe('the blind approval, replayed', () => {
  it('approves the JS submitted, not the JS the author wrote after submitting, and a publication sends it', async () => {
    const { block, submission } = await submitted();
    await changeBlock(block.id, {
      name: 'Ticker (changed)',
      js: 'window.tickerSource = "changed after submitting";',
    });

    const approved = await t.call('POST', `/api/admin/block-submissions/${submission.id}/approve`, {
      cookie: boss.cookie,
    });
    expect(approved.status).toBe(200);
    const copy = await t.call('GET', `/api/v1/blocks/${approved.body.approved_block_id}`, { key: publisher.key });
    expect(copy.body).toMatchObject({
      name: 'Ticker',
      description: 'A line of news.',
      scope: 'global',
      version: { major: 1, minor: 0 },
      current_revision: { js: SUBMITTED.js, template_content: SUBMITTED.template, css: SUBMITTED.css },
    });

    // Another user publishes a page with the approved global block: the CMS receives the submitted script.
    const site = await newSite(t, publisher);
    const configured = await t.call('PUT', `/api/v1/sites/${site.id}/provider/fourcms`, {
      key: publisher.key,
      body: { base_url: fake.url, token: fake.token },
    });
    expect(configured.status).toBe(200);
    const page = await createPage(t, publisher, {
      name: 'News',
      site_id: site.id,
      slug: 'news',
      blocks: [{ block_id: copy.body.id, placeholder_values: { headline: 'Today' } }],
    });
    const published = await t.call('POST', `/api/v1/pages/${page.id}/publish`, {
      key: publisher.key,
      body: { rubric_ids: [1] },
    });
    expect(published.status).toBe(200);
    const doc = fake.documents.get(String(published.body.external_id))!;
    expect(doc.js).toContain('window.tickerSource = "submitted";');
    expect(doc.js).not.toContain('changed after submitting');
    expect(doc.html).toContain('<p class="ticker">Today</p>');
  });
});

describe('what an administrator sees', () => {
  it('reads the submission as submitted, says the block changed since, and previews the submitted revision', async () => {
    const { block, submission } = await submitted();
    const fresh = await t.call('GET', `/api/admin/block-submissions/${submission.id}`, { cookie: boss.cookie });
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ changed_since_submitted: false, version: { major: 1, minor: 0 } });

    await changeBlock(block.id, {
      template: '<p class="ticker changed">{{ headline }}!</p>',
      js: 'window.tickerSource = "changed";',
    });
    const review = await t.call('GET', `/api/admin/block-submissions/${submission.id}`, { cookie: boss.cookie });
    expect(review.status).toBe(200);
    expect(review.body).toMatchObject({
      id: submission.id,
      block_id: block.id,
      status: 'pending',
      block_name: 'Ticker',
      author: { id: author.id, email: author.email },
      version: { major: 1, minor: 0 },
      current_version: { major: 1, minor: 1 },
      changed_since_submitted: true,
      block: { name: 'Ticker', description: 'A line of news.', docs: '', kind: 'content' },
      revision: {
        version: { major: 1, minor: 0 },
        template_content: SUBMITTED.template,
        css: SUBMITTED.css,
        js: SUBMITTED.js,
        schema_content: SUBMITTED.schema_content,
      },
    });

    const preview = await t.call('GET', `/api/admin/block-submissions/${submission.id}/preview`, {
      cookie: boss.cookie,
    });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toMatch(/^text\/html/);
    // The same sandbox as every preview: the block's JS runs in an opaque origin.
    expect(preview.headers.get('content-security-policy')).toBe('sandbox allow-scripts');
    expect(preview.text).toContain('<p class="ticker">Fresh news</p>');
    expect(preview.text).toContain(SUBMITTED.js);
    expect(preview.text).not.toContain('changed');

    const list = await t.call('GET', '/api/admin/block-submissions', {
      cookie: boss.cookie,
      query: { status: 'pending' },
    });
    expect(list.body.data.find((s: { id: number }) => s.id === submission.id)).toMatchObject({
      block_name: 'Ticker',
      author: { email: author.email },
      changed_since_submitted: true,
    });
  });

  it('counts a change of the texts alone as a change, and the approval copies the texts submitted', async () => {
    const { block, submission } = await submitted({ docs: 'How to use it.' });
    await changeBlock(block.id, { docs: 'Something else entirely.', block_type: 'markdown' });
    const review = await t.call('GET', `/api/admin/block-submissions/${submission.id}`, { cookie: boss.cookie });
    expect(review.body).toMatchObject({
      changed_since_submitted: true,
      current_version: { major: 1, minor: 0 },
      block: { docs: 'How to use it.', block_type: null },
    });
    const approved = await t.call('POST', `/api/admin/block-submissions/${submission.id}/approve`, {
      cookie: boss.cookie,
    });
    const copy = await t.call('GET', `/api/v1/blocks/${approved.body.approved_block_id}`, { key: author.key });
    expect(copy.body).toMatchObject({ docs: 'How to use it.', block_type: null });
  });

  it('keeps the content and the preview to administrators', async () => {
    const { submission } = await submitted();
    for (const path of [
      `/api/admin/block-submissions/${submission.id}`,
      `/api/admin/block-submissions/${submission.id}/preview`,
    ]) {
      // The author included: moderation is the administrators' alone.
      for (const who of [author, publisher])
        expect((await t.call('GET', path, { cookie: who.cookie })).status).toBe(403);
      expect((await t.call('GET', path)).status).toBe(401);
      expect((await t.call('GET', path, { cookie: boss.cookie })).status).toBe(200);
    }
    expect((await t.call('GET', '/api/admin/block-submissions/999999', { cookie: boss.cookie })).status).toBe(404);
    expect((await t.call('GET', '/api/admin/block-submissions/999999/preview', { cookie: boss.cookie })).status).toBe(
      404,
    );
  });

  it('shows the author their own submissions by name and version', async () => {
    const { block, submission } = await submitted();
    await changeBlock(block.id, { name: 'Renamed after' });
    const own = await t.call('GET', '/api/v1/block-submissions', { key: author.key });
    const mine = own.body.data.find((s: { id: number }) => s.id === submission.id);
    expect(mine).toEqual({
      id: submission.id,
      block_id: block.id,
      status: 'pending',
      reason: null,
      approved_block_id: null,
      created_at: expect.any(String),
      decided_at: null,
      block_name: 'Ticker',
      version: { major: 1, minor: 0 },
    });
  });
});
