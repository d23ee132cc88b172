import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeFourcms, type FakeFourcms } from '../../../src/providers/fourcms/fake-server.js';
import type { Actor } from '../../../src/shared/actor.js';
import { openServices, type ServiceHarness } from '../../support/services.js';

let h: ServiceHarness;
let fake: FakeFourcms;
let owner: Actor;
let stranger: Actor;
let siteId: number;
let blockId: number;

beforeAll(async () => {
  fake = await startFakeFourcms({ token: 'fake-token-123' });
  h = await openServices({ providerTimeoutMs: 4_000 });
  owner = await h.newActor();
  stranger = await h.newActor();
  siteId = (await h.services.sites.create(owner, { name: 'Published' })).id;
  await h.services.publishing.setFourcms(owner, siteId, { base_url: fake.url, token: fake.token });
  blockId = (
    await h.services.blocks.create(owner, {
      name: 'Line',
      template: '<p class="line">{{ title }}</p>',
      css: '.line{color:red}',
      schema_content: [{ name: 'title', type: 'string', required: true }],
    })
  ).id;
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

const newArticle = (name: string) =>
  h.services.pages.create(owner, {
    name,
    site_id: siteId,
    blocks: [{ block_id: blockId, placeholder_values: { title: name } }],
  });

describe('PublishingService on the real database', () => {
  it('publishes the rendered page to the provider and keeps the state it answered', async () => {
    const page = await newArticle('First');
    const status = await h.services.publishing.publish(owner, page.id, { rubric_ids: [1] });
    expect(status).toMatchObject({ is_published: true, external_id: expect.any(String) });
    const sent = fake.documents.get(status.external_id!)!;
    expect(sent).toMatchObject({ kind: 'article', title: 'First', rubric_ids: [1] });
    expect(String(sent.html)).toContain('<p class="line">First</p>');
    expect(await h.services.publishing.status(owner, page.id)).toEqual(status);

    await h.services.pages.update(owner, page.id, {
      blocks: [{ block_id: blockId, placeholder_values: { title: 'Changed' } }],
    });
    const updated = await h.services.publishing.publishUpdate(owner, page.id, {});
    expect(updated).toMatchObject({ is_published: true, external_id: status.external_id });
    expect(String(fake.documents.get(status.external_id!)!.html)).toContain('Changed');
  });

  it('refuses an article without rubric ids before calling the provider', async () => {
    const page = await newArticle('No rubric');
    const calls = fake.requests.length;
    await expect(h.services.publishing.publish(owner, page.id, {})).rejects.toMatchObject({
      kind: 'validation',
      errors: [expect.objectContaining({ path: 'rubric_ids' })],
    });
    expect(fake.requests.length).toBe(calls);
    expect((await h.services.publishing.status(owner, page.id)).is_published).toBe(false);
  });

  it('leaves the state as it was when the provider fails, and a later attempt succeeds', async () => {
    const page = await newArticle('Retried');
    fake.failNext('500');
    await expect(h.services.publishing.publish(owner, page.id, { rubric_ids: [2] })).rejects.toMatchObject({
      kind: 'bad_gateway',
    });
    expect(await h.services.publishing.status(owner, page.id)).toMatchObject({
      is_published: false,
      external_id: null,
      last_error: expect.stringContaining('fake provider failure'),
      last_error_at: expect.any(String),
    });
    // The claim was released with the failure: the next attempt is not refused as a concurrent one.
    const status = await h.services.publishing.publish(owner, page.id, { rubric_ids: [2] });
    expect(status).toMatchObject({ is_published: true, last_error: null, last_error_at: null });
    expect(await h.services.publishing.status(owner, page.id)).toMatchObject({ last_error: null });
  });

  it('refuses a second publish, an update of an unpublished page, and another user', async () => {
    const page = await newArticle('Once');
    await h.services.publishing.publish(owner, page.id, { rubric_ids: [1] });
    await expect(h.services.publishing.publish(owner, page.id, { rubric_ids: [1] })).rejects.toMatchObject({
      kind: 'validation',
    });
    const draft = await newArticle('Draft');
    await expect(h.services.publishing.publishUpdate(owner, draft.id, {})).rejects.toMatchObject({
      kind: 'validation',
    });
    await expect(h.services.publishing.publish(stranger, draft.id, { rubric_ids: [1] })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  it('names site_id when the site has no provider', async () => {
    const bare = await h.services.sites.create(owner, { name: 'No provider' });
    const page = await h.services.pages.create(owner, { name: 'Stranded', site_id: bare.id });
    await expect(h.services.publishing.publish(owner, page.id, { rubric_ids: [1] })).rejects.toMatchObject({
      errors: [expect.objectContaining({ path: 'site_id' })],
    });
  });
});
