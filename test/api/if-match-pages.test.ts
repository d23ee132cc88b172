import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../support/app.js';
import { newSite, newUser, type TestUser } from '../support/factories.js';
import { createBlock, createPage } from '../support/library.js';

let t: TestApp;
let user: TestUser;
let site: { id: number };
let block: { id: number };

beforeAll(async () => {
  t = await startApp();
  user = await newUser(t);
  site = await newSite(t, user);
  block = await createBlock(t, user, { name: 'Plain', schema_content: [{ name: 'title', type: 'string' }] });
});
afterAll(() => t.close());

const instance = (title: string) => ({ block_id: block.id, placeholder_values: { title } });
const newPage = (name = 'Page') =>
  createPage(t, user, { name, site_id: site.id, blocks: [instance('a'), instance('b'), instance('c')] });
const read = (id: number) => t.call('GET', `/api/v1/pages/${id}`, { key: user.key, query: { with_blocks: 1 } });
const call = (method: string, path: string, ifMatch?: string, body?: unknown, query?: Record<string, number>) =>
  t.call(method, `/api/v1${path}`, {
    key: user.key,
    ...(body !== undefined && { body }),
    ...(query && { query }),
    ...(ifMatch !== undefined && { headers: { 'if-match': ifMatch } }),
  });

describe('a page answers with its version as a weak ETag', () => {
  it('on create, on every read (kept answers included), and on writes that answer the page', async () => {
    const created = await t.call('POST', '/api/v1/pages', {
      key: user.key,
      body: { name: 'E', site_id: site.id, blocks: [instance('a')] },
    });
    expect(created.headers.get('etag')).toBe('W/"1"');
    // The second and third reads are answered from the kept body: the ETag is kept with it.
    for (let i = 0; i < 3; i++) {
      for (const withBlocks of [0, 1]) {
        const r = await t.call('GET', `/api/v1/pages/${created.body.id}`, {
          key: user.key,
          query: { with_blocks: withBlocks },
        });
        expect(r.headers.get('etag'), `read ${i}`).toBe('W/"1"');
      }
    }
    const renamed = await call('PUT', `/pages/${created.body.id}`, undefined, { name: 'E2' });
    expect(renamed.headers.get('etag')).toBe(`W/"${renamed.body.version}"`);
    expect(renamed.body.version).toBe(2);
    for (let i = 0; i < 3; i++) expect((await read(created.body.id)).headers.get('etag')).toBe('W/"2"');
    const added = await call('POST', `/pages/${created.body.id}/blocks`, undefined, { blocks: [instance('x')] });
    expect(added.headers.get('etag')).toBe('W/"3"');
  });
});

describe('page writes with If-Match', () => {
  it('a current version writes; a stale one is 412 with the current version, and nothing changes', async () => {
    const page = await newPage();
    const [first, second, third] = page.blocks.map((b: { id: number }) => b.id);
    const base = `/pages/${page.id}/blocks`;
    const ok = await call('PUT', `/pages/${page.id}`, 'W/"1"', { name: 'Renamed' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('etag')).toBe('W/"2"');

    // Every write of the page, each with the stale version 1.
    const stale: Array<[string, string, unknown?]> = [
      ['PUT', `/pages/${page.id}`, { name: 'Lost' }],
      ['DELETE', `/pages/${page.id}`],
      ['POST', base, { blocks: [instance('lost')] }],
      ['PUT', `${base}/${first}`, { placeholder_values: { title: 'lost' } }],
      ['PUT', `${base}/${first}/move`, { position: 2 }],
      ['DELETE', `${base}/${second}`],
      ['POST', `${base}/${third}/upgrade`],
      ['POST', `${base}/upgrade-all`],
      ['PUT', `${base}/${third}/replace`, instance('lost')],
    ];
    for (const [method, path, body] of stale) {
      const r = await call(method, path, 'W/"1"', body);
      expect(r.status, `${method} ${path}`).toBe(412);
      expect(r.body, `${method} ${path}`).toMatchObject({ error: 'version_conflict', current_version: 2 });
      expect(r.body.errors).toEqual([expect.objectContaining({ path: 'If-Match', code: 'conflict' })]);
      expect(r.headers.get('etag')).toBe('W/"2"');
      // A dry run answers as the real call would (DELETE /pages/{id} takes none: a real call, refused too).
      expect((await call(method, path, '"1"', body, { dry_run: 1 })).status, `dry ${method} ${path}`).toBe(412);
    }
    const after = await read(page.id);
    expect(after.body).toMatchObject({ name: 'Renamed', version: 2 });
    expect(after.body.blocks.map((b: { id: number }) => b.id)).toEqual([first, second, third]);

    // The current version: each goes through and answers the next version as its ETag.
    const values = await call('PUT', `${base}/${first}`, 'W/"2"', { placeholder_values: { title: 'new' } });
    expect(values.status).toBe(200);
    expect(values.headers.get('etag')).toBe('W/"3"');
    const moved = await call('PUT', `${base}/${first}/move`, '"3"', { position: 2 });
    expect(moved.headers.get('etag')).toBe('W/"4"');
    const replaced = await call('PUT', `${base}/${third}/replace`, 'W/"4"', instance('r'));
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get('etag')).toBe('W/"5"');
    expect((await call('DELETE', `${base}/${second}`, 'W/"5"')).status).toBe(204);
    expect((await call('POST', `${base}/upgrade-all`, 'W/"6"')).status).toBe(200);
    expect((await read(page.id)).body.version).toBe(7);
    expect((await call('DELETE', `/pages/${page.id}`, 'W/"6"')).status).toBe(412);
    expect((await call('DELETE', `/pages/${page.id}`, 'W/"7"')).status).toBe(204);
    expect((await read(page.id)).status).toBe(404);
  });

  it('a malformed If-Match is 400 at If-Match; `*` and no header write as before', async () => {
    const page = await newPage();
    const bad = await call('PUT', `/pages/${page.id}`, '1', { name: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: 'If-Match' })]);
    expect((await call('PUT', `/pages/${page.id}`, '*', { name: 'y' })).status).toBe(200);
    expect((await call('PUT', `/pages/${page.id}`, undefined, { name: 'z' })).status).toBe(200);
    expect((await read(page.id)).body).toMatchObject({ name: 'z', version: 3 });
  });

  it('another user’s page stays a 404, whatever the If-Match', async () => {
    const page = await newPage();
    const other = await newUser(t);
    const r = await t.call('PUT', `/api/v1/pages/${page.id}`, {
      key: other.key,
      body: { name: 'x' },
      headers: { 'if-match': 'W/"9"' },
    });
    expect(r.status).toBe(404);
  });
});

describe('two writers with the same If-Match', () => {
  it('exactly one succeeds, whichever writes they are; the page moves one version', async () => {
    for (let round = 0; round < 4; round++) {
      const page = await newPage(`Race ${round}`);
      const [first, second] = page.blocks.map((b: { id: number }) => b.id);
      const base = `/pages/${page.id}/blocks`;
      const writes: Array<[string, string, unknown?]> = [
        ['PUT', `${base}/${first}`, { placeholder_values: { title: 'v1' } }],
        ['PUT', `${base}/${second}`, { placeholder_values: { title: 'v2' } }],
        ['PUT', `${base}/${first}/move`, { position: 2 }],
        ['POST', base, { blocks: [instance('added')] }],
        ['PUT', `/pages/${page.id}`, { name: `renamed ${round}` }],
        ['PUT', `${base}/${first}`, { placeholder_values: { title: 'v3' } }],
      ];
      const replies = await Promise.all(writes.map(([m, p, b]) => call(m, p, 'W/"1"', b)));
      const statuses = replies.map((r) => r.status);
      expect(
        statuses.filter((s) => s < 300),
        `round ${round}: ${statuses.join()}`,
      ).toHaveLength(1);
      expect(
        statuses.filter((s) => s === 412),
        `round ${round}: ${statuses.join()}`,
      ).toHaveLength(5);
      expect((await read(page.id)).body.version).toBe(2);
    }
  });

  it('without If-Match, all of them go through as before', async () => {
    const page = await newPage('No condition');
    const first = page.blocks[0].id;
    const replies = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        call('PUT', `/pages/${page.id}/blocks/${first}`, undefined, { placeholder_values: { title: `w${i}` } }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await read(page.id)).body.version).toBe(5);
  });
});

describe('MCP page tools with expected_version', () => {
  it('refuse a stale version in the MCP error shape, at expected_version, and write over the current one', async () => {
    const page = await newPage('Agent');
    const tool = async (name: string, args: Record<string, unknown>) => {
      const reply = await t.call('POST', '/api/v1/mcp', {
        key: user.key,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
      });
      const result = reply.body.result;
      return { isError: result.isError as boolean | undefined, body: JSON.parse(result.content[0].text) };
    };
    const args = { pageId: page.id, pbId: page.blocks[0].id, placeholder_values: { title: 'mcp' } };
    const stale = await tool('update_block_values', { ...args, expected_version: 7 });
    expect(stale.isError).toBe(true);
    expect(stale.body).toMatchObject({
      status: 412,
      error: 'version_conflict',
      current_version: 1,
      errors: [{ path: 'expected_version', code: 'conflict', expected: 1 }],
    });
    const ok = await tool('update_block_values', { ...args, expected_version: 1 });
    expect(ok.isError).toBeUndefined();
    expect(ok.body.version).toBe(2);
    const renamed = await tool('update_page', { id: page.id, name: 'Agent 2', expected_version: 1 });
    expect(renamed.body).toMatchObject({ status: 412, current_version: 2 });
  });
});

describe('the OpenAPI document', () => {
  it('declares If-Match, the 412 and the ETag on the page routes', async () => {
    const document = (await t.call('GET', '/api/v1/docs.json')).body;
    const put = document.paths['/api/v1/pages/{id}'].put;
    expect(put.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'if-match' }));
    expect(put.responses['412']).toBeDefined();
    expect(put.responses['200'].headers.ETag).toBeDefined();
    expect(document.paths['/api/v1/pages/{id}'].get.responses['200'].headers.ETag).toBeDefined();
    for (const path of [
      '/blocks',
      '/blocks/{pbId}',
      '/blocks/{pbId}/move',
      '/blocks/{pbId}/replace',
      '/blocks/upgrade-all',
    ])
      expect(Object.values(document.paths[`/api/v1/pages/{pageId}${path}`]).some((o: any) => o.responses['412'])).toBe(
        true,
      );
  });
});
