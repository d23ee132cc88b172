import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser } from '../support/factories.js';
import { blockWithStoredTemplate, createBlock, createPage } from '../support/library.js';

const TOKEN = 'metrics-token-0123456789';

describe('/metrics with METRICS=1 and no token', () => {
  let t: TestApp;
  beforeAll(async () => {
    // One render thread, so that the second preview meets the first one's caches.
    t = await startApp({ env: { METRICS: '1' }, overrides: { renderPool: { threads: 1 } } });
  });
  afterAll(() => t.close());

  it('answers the listen address in Prometheus format, with request durations by route and status', async () => {
    const user = await newUser(t);
    await t.call('GET', '/api/v1/sites', { key: user.key });
    await t.call('GET', '/api/v1/sites/999999', { key: user.key });
    const r = await t.call('GET', '/metrics');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(r.text).toContain(
      'pageblocks_http_request_duration_seconds_count{method="GET",route="/api/v1/sites",status="200"}',
    );
    expect(r.text).toMatch(
      /pageblocks_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/sites\/:id",status="404"\} \d/,
    );
    expect(r.text).toContain('pageblocks_process_resident_memory_bytes');
    expect(r.text).not.toContain('/api/v1/sites/999999');
  });

  it('times database queries and page renders, and counts the render caches’ hits and misses', async () => {
    const user = await newUser(t);
    const site = await newSite(t, user);
    const block = await createBlock(t, user, { name: 'M', template: '<p>{{ title }}</p>' });
    // Saved before templates were checked at every save: a syntax error meets the renderer only so now.
    const broken = await blockWithStoredTemplate(t, user, { name: 'B', template: '{% if %}' });
    const page = await createPage(t, user, {
      name: 'Measured',
      site_id: site.id,
      blocks: [
        { block_id: block.id, placeholder_values: { title: 'a' } },
        { block_id: block.id, placeholder_values: { title: 'b' } },
      ],
    });
    const bad = await createPage(t, user, { name: 'Broken', site_id: site.id, blocks: [{ block_id: broken.id }] });
    const value = (text: string, series: string) =>
      Number(new RegExp(`^${series.replace(/[{}"()[\]|.+*?^$\\]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
    const before = (await t.call('GET', '/metrics')).text;
    // First preview: the thread parses the template and renders both instances; the second is the kept document.
    // Renamed, the page is another document, but its instances come from the thread's cache.
    const preview = () => t.call('GET', `/api/v1/pages/${page.id}/preview`, { key: user.key });
    expect((await preview()).status).toBe(200);
    expect((await preview()).status).toBe(200);
    const renamed = { key: user.key, body: { name: 'Measured again' } };
    expect((await t.call('PUT', `/api/v1/pages/${page.id}`, renamed)).status).toBe(200);
    expect((await preview()).status).toBe(200);
    expect((await t.call('GET', `/api/v1/pages/${bad.id}/preview`, { key: user.key })).status).toBe(422);
    const after = (await t.call('GET', '/metrics')).text;
    const delta = (series: string) => value(after, series) - value(before, series);

    expect(delta('pageblocks_render_duration_seconds_count{outcome="ok"}')).toBe(2);
    expect(delta('pageblocks_render_duration_seconds_count{outcome="syntax"}')).toBe(1);
    expect(delta('pageblocks_render_instances_total{cache="miss"}')).toBe(2);
    expect(delta('pageblocks_render_instances_total{cache="hit"}')).toBe(2);
    expect(delta('pageblocks_render_templates_total{cache="miss"}')).toBe(1);
    expect(delta('pageblocks_render_templates_total{cache="hit"}')).toBe(1);
    expect(delta('pageblocks_preview_documents_total{cache="miss"}')).toBe(3);
    expect(delta('pageblocks_preview_documents_total{cache="hit"}')).toBe(1);
    // Every request above read the key, the page and its instances.
    expect(delta('pageblocks_db_query_duration_seconds_count{outcome="ok"}')).toBeGreaterThanOrEqual(6);
    expect(after).toMatch(/^pageblocks_db_query_duration_seconds_bucket\{le="0.001",outcome="ok"\} \d+$/m);
    // The job queue's store, read at the scrape: nothing queued here.
    for (const state of ['queued', 'running', 'failed', 'retried'])
      expect(after).toMatch(new RegExp(`^pageblocks_jobs\\{state="${state}"\\} 0$`, 'm'));
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ env: { METRICS: 'yes', METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  it('needs the token, even from the listen address', async () => {
    expect((await t.call('GET', '/metrics')).status).toBe(403);
    expect(
      (await t.call('GET', '/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status,
    ).toBe(403);
    const r = await t.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(200);
    expect(r.text).toContain('pageblocks_http_request_duration_seconds');
  });
});

describe('/metrics by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('does not exist', async () => {
    expect((await t.call('GET', '/metrics')).status).toBe(404);
  });
});
