import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/shared/actor.js';
import { openServices, type ServiceHarness } from '../../support/services.js';

let h: ServiceHarness;
let owner: Actor;
let stranger: Actor;
let siteId: number;
let blockId: number;

beforeAll(async () => {
  h = await openServices();
  owner = await h.newActor();
  stranger = await h.newActor();
  siteId = (await h.services.sites.create(owner, { name: 'Main' })).id;
  blockId = (
    await h.services.blocks.create(owner, {
      name: 'Line',
      template: '<p>{{ title }}</p>',
      schema_content: [{ name: 'title', type: 'string', required: true }],
    })
  ).id;
});
afterAll(() => h.close());

describe('PagesService on the real database', () => {
  it('creates a page with its instances pinned to the current revision, and reads it back', async () => {
    const page = await h.services.pages.create(owner, {
      name: 'Home',
      site_id: siteId,
      blocks: [{ block_id: blockId, placeholder_values: { title: 'Hello' } }],
    });
    expect(page.blocks).toHaveLength(1);
    // The answer's view keeps the values as their stored text.
    expect(page.blocks![0]).toMatchObject({ block: { id: blockId }, placeholder_values_json: '{"title":"Hello"}' });

    // A later revision of the block moves the library, not the pin.
    const pinned = await h.services.blocks.create(owner, { name: 'Pinned', template: '<p>{{ title }}</p>' });
    const onPage = await h.services.pages.create(owner, {
      name: 'Pins',
      site_id: siteId,
      blocks: [{ block_id: pinned.id }],
    });
    const pinnedAt = (await h.services.pages.get(owner, onPage.id, true)).blocks![0]!.revision_id;
    await h.services.blocks.update(owner, pinned.id, { template: '<p>{{ title }}.</p>' });
    const read = await h.services.pages.get(owner, onPage.id, true);
    expect(read.blocks![0]).toMatchObject({
      revision_id: pinnedAt,
      version: { major: 1, minor: 0 },
      library_version: { major: 1, minor: 1 },
    });
    expect((await h.services.pages.get(owner, page.id, true)).blocks![0]!.placeholder_values).toEqual({
      title: 'Hello',
    });
  });

  it('refuses a missing block and invalid values at their paths, and writes no page', async () => {
    const before = await h.services.pages.list(owner, { limit: 100, offset: 0 });
    await expect(
      h.services.pages.create(owner, { name: 'Bad', site_id: siteId, blocks: [{ block_id: 999_999 }] }),
    ).rejects.toMatchObject({ kind: 'not_found', errors: [expect.objectContaining({ path: 'blocks[0].block_id' })] });
    await expect(
      h.services.pages.create(owner, {
        name: 'Bad',
        site_id: siteId,
        blocks: [{ block_id: blockId, placeholder_values: { title: 42 } }],
      }),
    ).rejects.toMatchObject({ errors: [expect.objectContaining({ path: 'blocks[0].placeholder_values.title' })] });
    expect((await h.services.pages.list(owner, { limit: 100, offset: 0 })).total).toBe(before.total);
  });

  it('keeps a page to its owner: another user neither reads, changes nor places a page on a foreign site', async () => {
    const page = await h.services.pages.create(owner, { name: 'Mine', site_id: siteId });
    await expect(h.services.pages.get(stranger, page.id)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(h.services.pages.update(stranger, page.id, { name: 'Taken' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(h.services.pages.create(stranger, { name: 'Here', site_id: siteId })).rejects.toMatchObject({
      kind: 'forbidden',
      errors: [expect.objectContaining({ path: 'site_id' })],
    });
    expect((await h.services.pages.get(owner, page.id)).name).toBe('Mine');
  });

  it('replaces the whole set of instances on update with blocks, and keeps them on a metadata update', async () => {
    const page = await h.services.pages.create(owner, {
      name: 'Set',
      site_id: siteId,
      blocks: [
        { block_id: blockId, placeholder_values: { title: 'One' } },
        { block_id: blockId, placeholder_values: { title: 'Two' } },
      ],
    });
    const renamed = await h.services.pages.update(owner, page.id, { name: 'Set, renamed' });
    expect(renamed.name).toBe('Set, renamed');
    expect((await h.services.pages.get(owner, page.id, true)).blocks).toHaveLength(2);

    await h.services.pages.update(owner, page.id, {
      blocks: [{ block_id: blockId, placeholder_values: { title: 'Only' } }],
    });
    const read = await h.services.pages.get(owner, page.id, true);
    expect(read.blocks!.map((b) => b.placeholder_values)).toEqual([{ title: 'Only' }]);
  });

  it('deletes a page, after which it is not found', async () => {
    const page = await h.services.pages.create(owner, { name: 'Gone', site_id: siteId });
    await h.services.pages.delete(owner, page.id);
    await expect(h.services.pages.get(owner, page.id)).rejects.toMatchObject({ kind: 'not_found' });
  });
});
