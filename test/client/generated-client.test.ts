import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiTypes, V1_API_TYPES } from '../../scripts/api-types.js';
import { startFakeFourcms, type FakeFourcms } from '../../src/providers/fourcms/fake-server.js';
import { startApp, type TestApp } from '../support/app.js';
import { checkedFetch } from '../support/documented-responses.js';
import { newUser, type TestUser } from '../support/factories.js';
import { runWorkflow } from './workflow.js';

let t: TestApp;
let fake: FakeFourcms;
let user: TestUser;
beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'client-token' });
  t = await startApp();
  user = await newUser(t);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('a client generated from the served /api/v1/docs.json', () => {
  it(`is current: run \`npm run gen:api\` when this fails (${V1_API_TYPES.file})`, async () => {
    const committed = await readFile(V1_API_TYPES.file, 'utf8');
    expect(await generateApiTypes(V1_API_TYPES)).toBe(committed);
  }, 180_000);

  it('runs the main workflow: sites, search, placeholder schema, a page with a bound block, preview, publication', async () => {
    // Every answer is also checked against the document, as the test client's are.
    const result = await runWorkflow(t.url, user.key, fake, checkedFetch(t.url));
    expect(result.siteName).toBe('Client site');
    expect(result.previewHtml).toMatch(/^<!doctype html>/i);
    expect(result.publication).toMatchObject({ is_published: true, external_slug: 'client-page' });
    expect(fake.documents.get(String(result.publication.external_id))).toMatchObject({ slug: 'client-page' });
  });

  it('stops at the step the service refuses, with its status and error', async () => {
    await expect(runWorkflow(t.url, 'pb_not-a-key', fake, checkedFetch(t.url))).rejects.toThrow(
      /^create a site: 401 \{"error":/,
    );
  });
});
