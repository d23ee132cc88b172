import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { bigPng, form, GIF, JPEG, PNG, WEBP } from '../support/images.js';
import { createBlock } from '../support/library.js';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
});
afterAll(() => t.close());

const cover = (blockId: number, body: FormData, as = user) =>
  t.call('POST', `/api/v1/blocks/${blockId}/cover`, { key: as.key, rawBody: body });
const coverFiles = async () => readdir(join(t.config.dataDir, 'uploads', 'covers')).catch(() => [] as string[]);

describe('block covers', () => {
  it.each([
    ['PNG', PNG, 'png'],
    ['JPEG', JPEG, 'jpg'],
    ['GIF', GIF, 'gif'],
    ['WebP', WEBP, 'webp'],
  ])('takes a %s by its bytes, whatever its name, and serves it at the returned path', async (_, bytes, ext) => {
    const block = await createBlock(t, user, { name: 'Covered' });
    const r = await cover(block.id, form('file', bytes, 'picture.txt', 'text/plain'));
    expect(r.status).toBe(200);
    expect(r.body.url).toMatch(new RegExp(`^/uploads/covers/[0-9a-f]+\\.${ext}$`));
    expect(r.body.block.cover_url).toBe(r.body.url);
    const served = await fetch(`${t.url}${r.body.url}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
  });

  it('streams a cover with an ETag and Last-Modified, cached for good; a conditional GET is 304, a range 206', async () => {
    const block = await createBlock(t, user, { name: 'Cached' });
    const url = `${t.url}${(await cover(block.id, form('file', PNG, 'x.png'))).body.url}`;
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-length')).toBe(String(PNG.length));
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('accept-ranges')).toBe('bytes');
    const etag = served.headers.get('etag');
    const modified = served.headers.get('last-modified');
    expect(etag).toMatch(/^(W\/)?"/);
    expect(modified).not.toBeNull();
    await served.arrayBuffer();

    // As a browser revalidates: fetch itself would add `cache-control: no-cache`, which asks for the body.
    const revalidate = { 'cache-control': 'max-age=0' };
    const again = await fetch(url, { headers: { ...revalidate, 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await fetch(url, { headers: { ...revalidate, 'if-modified-since': modified! } })).status).toBe(304);
    const changed = await fetch(url, { headers: { ...revalidate, 'if-none-match': '"another"' } });
    expect(changed.status).toBe(200);
    expect(Buffer.from(await changed.arrayBuffer())).toEqual(PNG);

    const part = await fetch(url, { headers: { range: 'bytes=0-3' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(PNG.subarray(0, 4));
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
  });

  it.each([
    ['a missing upload', '/uploads/covers/0000.png'],
    ['a path out of the uploads', '/uploads/..%2f..%2fpageblocks.db'],
    ['a file being written', '/uploads/covers/abc.png.0123456789ab.tmp'],
    ['a dot file', '/uploads/.secret'],
  ])('answers %s with a JSON error, never a file', async (_, path) => {
    const r = await t.call('GET', path);
    expect([403, 404]).toContain(r.status);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(typeof r.body.error).toBe('string');
  });

  it('removes the old cover when it is replaced', async () => {
    const block = await createBlock(t, user, { name: 'Twice' });
    const first = await cover(block.id, form('file', PNG, 'a.png'));
    const second = await cover(block.id, form('file', GIF, 'b.gif'));
    expect(second.body.url).not.toBe(first.body.url);
    expect((await fetch(`${t.url}${first.body.url}`)).status).toBe(404);
    expect((await fetch(`${t.url}${second.body.url}`)).status).toBe(200);
  });

  it.each([
    ['a text file named x.png', 'file', () => form('file', Buffer.from('not an image at all'), 'x.png')],
    [
      'an SVG',
      'file',
      () => form('file', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'x.svg', 'image/svg+xml'),
    ],
    ['a 6 MB PNG', 'file', () => form('file', bigPng(6 * 1024 * 1024), 'big.png')],
    ['no file field', 'file', () => form('picture', PNG, 'x.png')],
  ])('refuses %s with 400 at %s and stores nothing', async (_, path, body) => {
    const block = await createBlock(t, user, { name: 'Refused' });
    const before = await coverFiles();
    const r = await cover(block.id, body());
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toBe(path);
    expect(await coverFiles()).toEqual(before);
    expect((await t.call('GET', `/api/v1/blocks/${block.id}`, { key: user.key })).body.cover_url).toBeNull();
  });

  it('refuses a JSON body and another user’s block', async () => {
    const block = await createBlock(t, user, { name: 'Mine' });
    const json = await t.call('POST', `/api/v1/blocks/${block.id}/cover`, { key: user.key, body: { file: 'x' } });
    expect(json.status).toBe(400);
    const other = await newUser(t);
    expect((await cover(block.id, form('file', PNG, 'x.png'), other)).status).toBe(403);
    expect((await cover(999999, form('file', PNG, 'x.png'))).status).toBe(404);
  });
});

describe('site uploads', () => {
  it('stores an image and answers its absolute URL; refuses other files', async () => {
    const site = await newSite(t, user);
    const status = await t.call('GET', `/api/v1/sites/${site.id}/s3/status`, { key: user.key });
    expect(status.body).toEqual({ configured: true, bucket: null, public_url: 'http://pageblocks.test/uploads' });
    const r = await t.call('POST', `/api/v1/sites/${site.id}/s3/upload`, {
      key: user.key,
      rawBody: form('file', JPEG, 'photo.jpg'),
    });
    expect(r.status).toBe(201);
    expect(r.body.url).toMatch(new RegExp(`^http://pageblocks.test/uploads/sites/${site.id}/[0-9a-f]+\\.jpg$`));
    const text = await t.call('POST', `/api/v1/sites/${site.id}/s3/upload`, {
      key: user.key,
      rawBody: form('file', Buffer.from('hello'), 'a.jpg'),
    });
    expect(text.status).toBe(400);
    const other = await newUser(t);
    expect(
      (
        await t.call('POST', `/api/v1/sites/${site.id}/s3/upload`, {
          key: other.key,
          rawBody: form('file', JPEG, 'x.jpg'),
        })
      ).status,
    ).toBe(403);
  });
});

describe('a site’s media library', () => {
  const upload = (siteId: number, file: Buffer, name: string, who = user) =>
    t.call('POST', `/api/v1/sites/${siteId}/s3/upload`, { key: who.key, rawBody: form('file', file, name) });
  const list = (siteId: number, who = user) => t.call('GET', `/api/v1/sites/${siteId}/uploads`, { key: who.key });

  it('lists the site’s uploads newest first, and only that site’s; a removal deletes the file', async () => {
    const site = await newSite(t, user);
    const other = await newSite(t, user);
    const first = await upload(site.id, PNG, 'a.png');
    const second = await upload(site.id, JPEG, 'b.jpg');
    await upload(other.id, GIF, 'c.gif');
    const listed = await list(site.id);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((u: { url: string }) => u.url).sort()).toEqual(
      [first.body.url, second.body.url].sort(),
    );
    expect(listed.body.data[0]).toMatchObject({
      name: expect.stringMatching(/^[0-9a-f]+\.(png|jpg)$/),
      bytes: expect.any(Number),
      created_at: expect.any(String),
    });
    expect((await list(other.id)).body.data).toHaveLength(1);

    const name = String(first.body.url).split('/').pop()!;
    const served = () => t.call('GET', `/uploads/sites/${site.id}/${name}`);
    expect((await served()).status).toBe(200);
    const removed = await t.call('DELETE', `/api/v1/sites/${site.id}/uploads/${name}`, { key: user.key });
    expect(removed.status).toBe(204);
    expect((await served()).status).toBe(404);
    expect((await list(site.id)).body.data.map((u: { url: string }) => u.url)).toEqual([second.body.url]);
    const again = await t.call('DELETE', `/api/v1/sites/${site.id}/uploads/${name}`, { key: user.key });
    expect(again.status).toBe(404);
    // Another site's upload is not this site's to delete.
    const theirs = String((await list(other.id)).body.data[0].name);
    expect((await t.call('DELETE', `/api/v1/sites/${site.id}/uploads/${theirs}`, { key: user.key })).status).toBe(404);
    expect((await list(other.id)).body.data).toHaveLength(1);
  });

  it('is the site owner’s alone', async () => {
    const site = await newSite(t, user);
    await upload(site.id, PNG, 'a.png');
    const stranger = await newUser(t);
    expect((await list(site.id, stranger)).status).toBe(403);
  });
});
