import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newUser } from '../support/factories.js';

const TOKEN = 'metrics-token-0123456789';

describe('/metrics with METRICS=1 and no token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ env: { METRICS: '1' } });
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
