import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/shared/actor.js';
import { openServices, type ServiceHarness } from '../../support/services.js';

let h: ServiceHarness;
let owner: Actor;
let stranger: Actor;

beforeAll(async () => {
  h = await openServices();
  owner = await h.newActor();
  stranger = await h.newActor();
});
afterAll(() => h.close());

const titleField = { name: 'title', type: 'string', required: true };
const subtitleField = { name: 'subtitle', type: 'string' };

describe('BlocksService on the real database', () => {
  it('starts a block with content at 1.0 and stores its checked fields', async () => {
    const block = await h.services.blocks.create(owner, {
      name: 'Hero',
      template: '<h1>{{ title }}</h1>',
      schema_content: [titleField],
    });
    expect(block.revision?.version).toEqual({ major: 1, minor: 0 });
    const read = await h.services.blocks.get(owner, block.id);
    expect(read.revision?.schema_content).toEqual([expect.objectContaining({ name: 'title', type: 'string' })]);
  });

  it('bumps the minor version for an added field and the major one for a removed field, naming it', async () => {
    const block = await h.services.blocks.create(owner, {
      name: 'Card',
      template: '<p>{{ title }}</p>',
      schema_content: [titleField],
    });
    const added = await h.services.blocks.update(owner, block.id, { schema_content: [titleField, subtitleField] });
    expect(added).toMatchObject({ version_bump: 'minor', removed_fields: [] });
    expect(added.block.revision?.version).toEqual({ major: 1, minor: 1 });

    const removed = await h.services.blocks.update(owner, block.id, { schema_content: [titleField] });
    expect(removed).toMatchObject({ version_bump: 'major', removed_fields: ['subtitle'] });
    expect(removed.block.revision?.version).toEqual({ major: 2, minor: 0 });

    const unchanged = await h.services.blocks.update(owner, block.id, { name: 'Card, renamed' });
    expect(unchanged.version_bump).toBe('none');
    expect(unchanged.block.revision?.version).toEqual({ major: 2, minor: 0 });
  });

  it('refuses a schema it cannot check, at the path of the problem, and stores nothing', async () => {
    const before = await h.services.blocks.list(owner, { limit: 100, offset: 0 });
    await expect(
      h.services.blocks.create(owner, { name: 'Broken', schema_content: [{ name: 'x', type: 'no-such-type' }] }),
    ).rejects.toMatchObject({
      kind: 'unprocessable',
      errors: [expect.objectContaining({ path: 'schema_content[0].type' })],
    });
    const after = await h.services.blocks.list(owner, { limit: 100, offset: 0 });
    expect(after.total).toBe(before.total);
  });

  it('keeps a private block from another user and lets only its owner change it', async () => {
    const block = await h.services.blocks.create(owner, { name: 'Private', template: '<p>x</p>' });
    await expect(h.services.blocks.get(stranger, block.id)).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(h.services.blocks.update(stranger, block.id, { name: 'Taken' })).rejects.toMatchObject({
      kind: 'forbidden',
    });
    await expect(h.services.blocks.get(owner, 999_999)).rejects.toMatchObject({ kind: 'not_found' });
    expect((await h.services.blocks.get(owner, block.id)).name).toBe('Private');
  });

  it('forks a global block into a private one at 1.0 that points back to it; a private block is no source', async () => {
    const { data } = await h.services.blocks.list(owner, { limit: 100, offset: 0 });
    const source = data.find((b) => b.scope === 'global' && b.revision)!;
    const fork = await h.services.blocks.fork(owner, source.id, 'Fork');
    expect(fork).toMatchObject({ name: 'Fork', scope: 'user', owner_id: owner.userId, forked_from_id: source.id });
    expect(fork.revision).toMatchObject({ version: { major: 1, minor: 0 }, template: source.revision!.template });

    const own = await h.services.blocks.create(owner, { name: 'Mine', template: '<p>x</p>' });
    await expect(h.services.blocks.fork(owner, own.id)).rejects.toMatchObject({ kind: 'validation' });
  });
});
